// Reader for the small "Regime Tributário" CSVs (layout doc §5.2): current files use `,` with a header
// (LF or CRLF); older ones `;` without header.
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { repairUtf8, type RejectedRecord } from './records.ts';

export type DelimitedItem = { fields: string[]; recordNo: number } | { reject: RejectedRecord };

const CANDIDATES = [',', ';', '\t', '|'];
const SNIFF_LIMIT = 64 * 1024;

export class DelimitedLayoutError extends Error {
  override name = 'DelimitedLayoutError';
}

function normalizeHeaderCell(s: string): string {
  return s
    .replace(/^\uFEFF|^\u00EF\u00BB\u00BF/, '')
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** Splits a header/first line naïvely (quotes stripped): enough to sniff, real parsing is csv-parse's. */
function splitLine(line: string, delim: string): string[] {
  return line.split(delim).map((c) => c.replace(/^\s*"|"\s*$/g, ''));
}

interface Sniffed {
  delimiter: string;
  hasHeader: boolean;
}

function sniff(firstLine: string, expected: string[]): Sniffed {
  const want = expected.map(normalizeHeaderCell).join('\u0000');
  // 1) a delimiter that turns the first line into the expected header
  for (const d of CANDIDATES) {
    if (splitLine(firstLine, d).map(normalizeHeaderCell).join('\u0000') === want) return { delimiter: d, hasHeader: true };
  }
  // 2) otherwise the delimiter giving the expected column count, else the most frequent one
  let best = CANDIDATES[0];
  let bestCount = -1;
  for (const d of CANDIDATES) {
    const n = splitLine(firstLine, d).length;
    if (n === expected.length) {
      best = d;
      break;
    }
    if (n - 1 > bestCount) {
      bestCount = n - 1;
      best = d;
    }
  }
  // A header-like first line that is not our header means a layout change: refuse rather than mis-map.
  const cells = splitLine(firstLine, best);
  if (cells.every((c) => !/\d/.test(c)) && cells.some((c) => /[a-z]/i.test(c))) {
    throw new DelimitedLayoutError(
      `cabeçalho inesperado: "${firstLine.slice(0, 200)}" (esperado: ${expected.join(',')})`,
    );
  }
  return { delimiter: best, hasHeader: false };
}

export async function* readDelimitedRecords(
  stream: Readable,
  opts: { expectedHeader: string[] },
): AsyncGenerator<DelimitedItem> {
  const expected = opts.expectedHeader;
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const head: Buffer[] = [];
  let headLen = 0;
  let firstLine: string | undefined;
  let done = false;
  try {
    // Read just enough to see the first non-blank line.
    while (firstLine === undefined) {
      const r = await it.next();
      if (r.done) {
        done = true;
        const text = Buffer.concat(head).toString('latin1');
        firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
        break;
      }
      const b = typeof r.value === 'string' ? Buffer.from(r.value, 'latin1') : r.value;
      head.push(b);
      headLen += b.length;
      const text = Buffer.concat(head).toString('latin1');
      const m = /^(?:[ \t]*\r?\n)*([^\r\n]*)\r?\n/.exec(text);
      if (m) firstLine = m[1];
      else if (headLen > SNIFF_LIMIT) firstLine = text.slice(0, SNIFF_LIMIT);
    }
    if (firstLine.trim() === '') return; // empty file
    const { delimiter } = sniff(firstLine, expected);
    const headerKey = expected.map(normalizeHeaderCell).join('\u0000');

    // Line by line: these files are unquoted in practice, so a split is ~10× faster than csv-parse
    // (10 M rows a month); a line holding a quote goes through csv-parse to honour the quoting.
    let recordNo = 0;
    let lineNo = 0;
    let rest = '';
    const lines = function* (text: string, final: boolean): Generator<string> {
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        yield text.slice(start, nl);
        start = nl + 1;
      }
      rest = text.slice(start);
      if (final && rest !== '') {
        const last = rest;
        rest = '';
        yield last;
      }
    };
    const handle = (raw: string): DelimitedItem | null => {
      lineNo++;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() === '') return null;
      const fields = line.includes('"') ? parseQuotedLine(line, delimiter) : line.split(delimiter);
      // Header lines (the first one, or repeated when per-year files were concatenated) are dropped.
      if (!/^\s*\d/.test(line) && fields.length === expected.length && fields.map(normalizeHeaderCell).join('\u0000') === headerKey) return null;
      recordNo++;
      if (fields.length !== expected.length) {
        return { reject: { raw: line, recordNo, line: lineNo, reason: `esperados ${expected.length} campos, encontrados ${fields.length}` } };
      }
      return { fields: fields.map(repairUtf8), recordNo };
    };
    const feed = function* (b: Buffer, final: boolean): Generator<DelimitedItem> {
      for (const raw of lines(rest + b.toString('latin1').replaceAll('\0', ''), final)) {
        const item = handle(raw);
        if (item) yield item;
      }
    };
    for (const b of head) yield* feed(b, false);
    while (!done) {
      const r = await it.next();
      if (r.done) break;
      yield* feed(typeof r.value === 'string' ? Buffer.from(r.value, 'latin1') : r.value, false);
    }
    yield* feed(Buffer.alloc(0), true);
  } finally {
    // Stop the source if the consumer bailed out early or parsing failed.
    if (!stream.destroyed && !stream.readableEnded) stream.destroy();
  }
}

/** One line with quotes, parsed by csv-parse (lenient: stray quotes are kept as text). */
function parseQuotedLine(line: string, delimiter: string): string[] {
  const rows = parse(line, { delimiter, quote: '"', escape: null, relax_quotes: true, relax_column_count: true }) as string[][];
  return rows[0] ?? [];
}
