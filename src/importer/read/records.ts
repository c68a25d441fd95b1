import { isAscii } from 'node:buffer';

// Streaming parser for the Receita Federal CSV dialect: `;` separator, every field quoted with `"`,
// no header, no escape character, LF (CRLF tolerated), Latin-1. This is the import hot path: a
// per-line fast path (indexOf/slice on a latin1 string) handles ~all rows; a careful state machine
// handles the quirks (docs/receita-dump.md, §7) and never lets one bad record shift columns or abort the file.

export interface ParsedRecord {
  fields: string[];
  /** 1-based count of records (accepted and rejected) in the member. */
  recordNo: number;
  /** 1-based physical line where the record starts. */
  line: number;
}

export interface RejectedRecord {
  raw: string;
  recordNo: number;
  line: number;
  reason: string;
}

export interface RecordParserOptions {
  expectedFields: number;
  onRecord: (fields: string[], recordNo: number, line: number) => void;
  onReject: (r: RejectedRecord) => void;
}

/** A quoted field may span lines (quirk 1), but an unterminated quote must not swallow the file. */
export const MAX_RECORD_CHARS = 16 * 1024;
export const MAX_RECORD_LINES = 32;
/** A "line" longer than this without any LF is garbage: rejected and skipped up to the next LF. */
export const MAX_LINE_CHARS = 64 * 1024;

// Embedded UTF-8 we repair: 2-byte sequences for U+0080–U+017F (lead C2–C5: Latin-1 supplement and
// Latin Extended-A, i.e. every Portuguese letter) and 3-byte E2 sequences (punctuation, €, ™). Wider
// ranges would misread genuine Latin-1 text such as "Çº" (C7 BA) or "ãºº" as UTF-8.
export const SUSPECT = /[\u00C2-\u00C5\u00E2][\u0080-\u00BF]/;
const UTF8_SEQ = /[\u00C2-\u00C5][\u0080-\u00BF]|\u00E2[\u0080-\u00BF]{2}/g;
const utf8Fatal = new TextDecoder('utf-8', { fatal: true });

function decodeSeq(m: string): string {
  let d: string;
  try {
    d = utf8Fatal.decode(Buffer.from(m, 'latin1'));
  } catch {
    return m; // invalid UTF-8: keep the Latin-1 reading
  }
  const cp = d.charCodeAt(0);
  // C1 controls (C2 80–9F) are never intended; for E2 keep only General Punctuation..Currency and ™.
  if (cp < 0xa0 || (cp >= 0x2000 && !(cp >= 0x2010 && cp <= 0x20bf) && cp !== 0x2122)) return m;
  return d;
}

/**
 * Quirk 11: UTF-8 bytes stored inside a Latin-1 file ("SecretÃ¡rio" → "Secretário"). Only sequences that
 * are valid UTF-8 are rewritten; a second pass fixes double-encoded text. Clean strings pay one regex test.
 */
export function repairUtf8(s: string): string {
  if (!SUSPECT.test(s)) return s;
  let out = s.replace(UTF8_SEQ, decodeSeq);
  if (out !== s && SUSPECT.test(out)) out = out.replace(UTF8_SEQ, decodeSeq);
  return out;
}

const QUOTE = 34;
const SEMI = 59;
const LF = 10;
const CR = 13;

/** Fast path for a fully quoted line: exactly the state machine's result, or null to fall back. */
function fastSplit(s: string, start: number, end: number, n: number): string[] | null {
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

const NEED_MORE = 1;
const UNTERMINATED = 2;
interface SlowResult {
  fields: string[];
  /** index just after the record's terminating LF (or the end of input) */
  next: number;
}

/**
 * Lenient state machine. A quoted field ends at a `"` followed by `;`, LF, CRLF or end of input; any other
 * `"` (and `\`, `;`, LF) inside it is literal. Unquoted fields run to the next `;` or end of line.
 */
function parseSlow(s: string, p: number, final: boolean): SlowResult | typeof NEED_MORE | typeof UNTERMINATED {
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

function countLf(s: string, from: number, to: number): number {
  let n = 0;
  for (let k = s.indexOf('\n', from); k !== -1 && k < to; k = s.indexOf('\n', k + 1)) n++;
  return n;
}

export class RecordParser {
  private readonly expected: number;
  private readonly onRecord: RecordParserOptions['onRecord'];
  private readonly onReject: RecordParserOptions['onReject'];
  private buf = '';
  /** physical line number of buf[0] */
  private lineNo = 1;
  private recordCount = 0;
  private acceptedCount = 0;
  private rejectedCount = 0;
  private skipping = false;
  /** true when neither the leftover nor the new chunk has bytes ≥ 0x80: skip the UTF-8 scan entirely */
  private pureAscii = false;
  private leftoverClean = true;
  private ended = false;
  private readonly suspectRe = new RegExp(SUSPECT.source, 'g');

  constructor(opts: RecordParserOptions) {
    if (!Number.isInteger(opts.expectedFields) || opts.expectedFields < 1) throw new RangeError('expectedFields must be a positive integer');
    this.expected = opts.expectedFields;
    this.onRecord = opts.onRecord;
    this.onReject = opts.onReject;
  }

  get records(): number {
    return this.acceptedCount;
  }
  get rejected(): number {
    return this.rejectedCount;
  }

  push(chunk: Buffer): void {
    if (this.ended) throw new Error('RecordParser.push() after end()');
    if (chunk.length === 0) return;
    // Native SIMD check: most chunks of the big files are plain ASCII and need no UTF-8 scan.
    this.pureAscii = this.leftoverClean && isAscii(chunk);
    let s = chunk.toString('latin1');
    if (s.indexOf('\0') !== -1) s = s.replace(/\0/g, ''); // quirk 3: NULs anywhere
    this.buf = this.buf.length === 0 ? s : this.buf + s;
    this.process(false);
  }

  end(): void {
    if (this.ended) return;
    this.process(true);
    this.ended = true;
  }

  private nextSuspect(s: string, from: number): number {
    this.suspectRe.lastIndex = from;
    const m = this.suspectRe.exec(s);
    return m === null ? Infinity : m.index;
  }

  private reject(raw: string, line: number, reason: string): void {
    this.rejectedCount++;
    this.onReject({ raw, recordNo: ++this.recordCount, line, reason });
  }

  private accept(fields: string[], line: number): void {
    this.acceptedCount++;
    this.onRecord(fields, ++this.recordCount, line);
  }

  private process(final: boolean): void {
    const s = this.buf;
    const len = s.length;
    const n = this.expected;
    let pos = 0;
    let line = this.lineNo;
    let suspect = this.pureAscii ? Infinity : this.nextSuspect(s, 0);

    while (pos < len) {
      let nl = s.indexOf('\n', pos);
      if (this.skipping) {
        if (nl === -1) {
          pos = len;
          break;
        }
        this.skipping = false;
        pos = nl + 1;
        line++;
        continue;
      }
      if (nl === -1) {
        if (!final) {
          if (len - pos > MAX_LINE_CHARS) {
            this.reject(s.slice(pos, pos + 200), line, `line longer than ${MAX_LINE_CHARS} characters (dropped)`);
            this.skipping = true;
            pos = len;
          }
          break;
        }
        nl = len;
      }
      if (nl - pos > MAX_LINE_CHARS) {
        // Same verdict whatever the chunking: over-long lines are rejected whole.
        this.reject(s.slice(pos, pos + 200), line, `line longer than ${MAX_LINE_CHARS} characters (dropped)`);
        pos = nl + 1;
        line++;
        continue;
      }
      let end = nl;
      if (end > pos && s.charCodeAt(end - 1) === CR) end--;
      if (end === pos) {
        pos = nl + 1; // blank line (e.g. trailing): skipped, not a record
        line++;
        continue;
      }
      if (suspect < pos) suspect = this.nextSuspect(s, pos);

      if (end - pos >= 2 && s.charCodeAt(pos) === QUOTE && s.charCodeAt(end - 1) === QUOTE) {
        const fields = fastSplit(s, pos, end, n);
        if (fields !== null) {
          if (suspect < end) {
            for (let k = 0; k < fields.length; k++) fields[k] = repairUtf8(fields[k]);
          }
          this.accept(fields, line);
          pos = nl + 1;
          line++;
          continue;
        }
      }

      const r = parseSlow(s, pos, final);
      if (r === NEED_MORE) break;
      if (r === UNTERMINATED) {
        // Resynchronise at the line after the record's start.
        this.reject(s.slice(pos, end), line, `unclosed quote (quoted field longer than ${MAX_RECORD_CHARS} characters or reaching the end of the file)`);
        pos = nl + 1;
        line++;
        continue;
      }
      const recEnd = Math.min(r.next, len);
      const lfs = countLf(s, pos, recEnd);
      const spanned = lfs - (s.charCodeAt(r.next - 1) === LF ? 1 : 0); // LFs inside quoted fields
      if (r.fields.length !== n || spanned > MAX_RECORD_LINES) {
        // Reject only the first physical line and restart at the next: if the cause was an unterminated
        // quote, the following (good) records are not lost.
        const why = spanned > MAX_RECORD_LINES
          ? `record longer than ${MAX_RECORD_LINES} lines (unclosed quote?)`
          : `expected ${n} fields, found ${r.fields.length}` + (spanned > 0 ? ` (record of ${spanned + 1} lines; its first line rejected)` : '');
        this.reject(s.slice(pos, end), line, why);
        pos = nl + 1;
        line++;
        continue;
      }
      const fields = r.fields;
      if (suspect < recEnd) {
        for (let k = 0; k < fields.length; k++) fields[k] = repairUtf8(fields[k]);
      }
      this.accept(fields, line);
      line += lfs;
      pos = r.next;
    }

    this.buf = pos >= len ? '' : s.slice(pos);
    this.leftoverClean = !SUSPECT.test(this.buf);
    this.lineNo = line;
  }
}
