// Splitting one record of the Receita CSV dialect out of the text: the fast path for a fully
// quoted line, and the lenient state machine for everything else (RecordParser drives both).

/** A quoted field may span lines (quirk 1), but an unterminated quote must not swallow the file. */
export const MAX_RECORD_CHARS = 16 * 1024;
export const MAX_RECORD_LINES = 32;
/** A "line" longer than this without any LF is garbage: rejected and skipped up to the next LF. */
export const MAX_LINE_CHARS = 64 * 1024;

export const QUOTE = 34;
const SEMI = 59;
export const LF = 10;
export const CR = 13;

/** Fast path for a fully quoted line: exactly the state machine's result, or null to fall back. */
export function fastSplit(s: string, start: number, end: number, n: number): string[] | null {
  const last = end - 1; // index of the closing quote of the last field
  const fields: string[] = new Array(n); // preallocated: ~20% faster than growing by push
  let k = 0;
  let p = start + 1;
  for (;;) {
    // Single-char indexOf is markedly faster than searching for `";`.
    const j = s.indexOf('"', p);
    if (j === last) {
      if (k !== n - 1) return null;
      fields[k] = s.slice(p, last);
      return fields;
    }
    // A quote not followed by `;"` is literal text or starts an unquoted field: careful path.
    if (j > last || s.charCodeAt(j + 1) !== SEMI || s.charCodeAt(j + 2) !== QUOTE || k === n - 1) return null;
    fields[k++] = s.slice(p, j);
    p = j + 3;
  }
}

export const NEED_MORE = 1;
export const UNTERMINATED = 2;
interface SlowResult {
  fields: string[];
  /** index just after the record's terminating LF (or the end of input) */
  next: number;
}

/**
 * Lenient state machine. A quoted field ends at a `"` followed by `;`, LF, CRLF or end of input; any other
 * `"` (and `\`, `;`, LF) inside it is literal. Unquoted fields run to the next `;` or end of line.
 */
export function parseSlow(s: string, p: number, final: boolean): SlowResult | typeof NEED_MORE | typeof UNTERMINATED {
  const len = s.length;
  const limit = p + MAX_RECORD_CHARS;
  const fields: string[] = [];
  let i = p;
  for (;;) {
    if (s.charCodeAt(i) === QUOTE) {
      let j = i + 1;
      for (;;) {
        const q = s.indexOf('"', j);
        if (q === -1 || q >= limit) {
          if (!final && q === -1 && len < limit) return NEED_MORE;
          return UNTERMINATED;
        }
        if (q + 1 >= len) {
          if (!final) return NEED_MORE;
          fields.push(s.slice(i + 1, q));
          return { fields, next: len };
        }
        const c = s.charCodeAt(q + 1);
        if (c === SEMI) {
          fields.push(s.slice(i + 1, q));
          i = q + 2;
          break;
        }
        if (c === LF) {
          fields.push(s.slice(i + 1, q));
          return { fields, next: q + 2 };
        }
        if (c === CR) {
          if (q + 2 >= len) {
            if (!final) return NEED_MORE;
            fields.push(s.slice(i + 1, q));
            return { fields, next: len };
          }
          if (s.charCodeAt(q + 2) === LF) {
            fields.push(s.slice(i + 1, q));
            return { fields, next: q + 3 };
          }
        }
        j = q + 1; // literal quote
      }
    } else {
      let nl = s.indexOf('\n', i);
      if (nl === -1) {
        if (!final) return NEED_MORE;
        nl = len;
      }
      const semi = s.indexOf(';', i);
      if (semi !== -1 && semi < nl) {
        fields.push(s.slice(i, semi));
        i = semi + 1;
        continue;
      }
      let e = nl;
      if (e > i && s.charCodeAt(e - 1) === CR) e--;
      fields.push(s.slice(i, e));
      return { fields, next: nl + 1 };
    }
  }
}

export function countLf(s: string, from: number, to: number): number {
  let n = 0;
  for (let k = s.indexOf('\n', from); k !== -1 && k < to; k = s.indexOf('\n', k + 1)) n++;
  return n;
}
