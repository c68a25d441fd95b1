// Reader for the small "Regime Tributário" CSVs (docs/receita-dump.md, §6): current files use `,` with a header
// (LF or CRLF); older ones `;` without header.
import { parse } from 'csv-parse/sync';
import { BOM, decodeField, NEEDS_DECODING } from './decode.ts';
import type { RejectedRecord } from './records.ts';
import { MAX_LINE_CHARS } from './split.ts';

const CANDIDATES = [',', ';', '\t', '|'];
const SNIFF_LIMIT = 64 * 1024;

export class DelimitedLayoutError extends Error {
  override name = 'DelimitedLayoutError';
}

function normalizeHeaderCell(s: string): string {
  return s
    .replace(/^\uFEFF/, '')
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

function sniff(firstLine: string, expected: readonly string[], whole: boolean): Sniffed {
  const want = expected.map(normalizeHeaderCell).join('\u0000');
  // 1) a delimiter that turns the first line into the expected header
  for (const d of CANDIDATES) {
    if (splitLine(firstLine, d).map(normalizeHeaderCell).join('\u0000') === want)
      return { delimiter: d, hasHeader: true };
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
    throw new DelimitedLayoutError(`unexpected header: "${firstLine.slice(0, 200)}" (expected: ${expected.join(',')})`);
  }
  // No header and no separator giving the expected columns: another layout, whose rows would all
  // be rejected (or worse, mis-mapped if a later line happened to split right). A line cut at the
  // sniffing limit or over-long is left to the line rules (rejected as over-long).
  if (whole && cells.length !== expected.length) {
    throw new DelimitedLayoutError(
      `first line has ${cells.length} columns with any of the separators ${CANDIDATES.join(' ')} (expected ${expected.length}: ${expected.join(',')}): "${firstLine.slice(0, 200)}"`,
    );
  }
  return { delimiter: best, hasHeader: false };
}

export interface DelimitedParserOptions {
  expectedHeader: readonly string[];
  onRecord: (fields: string[], recordNo: number, line: number) => void;
  onReject: (r: RejectedRecord) => void;
}

/**
 * Push parser (like RecordParser: push(chunk) … end(), records handed to callbacks). Buffers input
 * until the first non-blank line is seen, sniffs the layout from it, then goes line by line. These
 * files are unquoted in practice, so a split is much faster than csv-parse (10 M rows a month;
 * docs/benchmarks.md); a line holding a quote goes through csv-parse to honour the quoting.
 * Throws DelimitedLayoutError from push()/end() on an unexpected header.
 */
export class DelimitedParser {
  private readonly expected: readonly string[];
  private readonly headerKey: string;
  private readonly onRecord: DelimitedParserOptions['onRecord'];
  private readonly onReject: DelimitedParserOptions['onReject'];
  /** null until the first non-blank line has been seen */
  private delimiter: string | null = null;
  /** text received but not yet split into lines (everything, while still sniffing) */
  private rest = '';
  private recordNo = 0;
  private lineNo = 0;
  /** Dropping the rest of an over-long line, up to its LF. */
  private skipping = false;

  constructor(opts: DelimitedParserOptions) {
    this.expected = opts.expectedHeader;
    this.headerKey = this.expected.map(normalizeHeaderCell).join('\u0000');
    this.onRecord = opts.onRecord;
    this.onReject = opts.onReject;
  }

  push(chunk: Buffer): void {
    let text = chunk.toString('latin1');
    if (text.indexOf('\0') !== -1) text = text.replaceAll('\0', '');
    this.rest += text;
    if (this.delimiter === null && !this.sniff(false)) return;
    this.lines(false);
  }

  end(): void {
    if (this.delimiter === null && !this.sniff(true)) return;
    this.lines(true);
  }

  /** Picks the delimiter from the first non-blank line once it is complete; false while still waiting. */
  private sniff(final: boolean): boolean {
    const text = this.rest;
    let firstLine: string | null = null;
    let whole = true;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1 && firstLine === null; nl = text.indexOf('\n', start)) {
      if (text.slice(start, nl).trim() !== '') firstLine = text.slice(start, nl);
      start = nl + 1;
    }
    if (firstLine === null) {
      if (text.length > SNIFF_LIMIT) {
        firstLine = text.slice(start, start + SNIFF_LIMIT);
        whole = false;
      } else if (!final) return false;
      else if (text.slice(start).trim() !== '') firstLine = text.slice(start);
      else return false; // empty file
    }
    if (firstLine.startsWith(BOM)) firstLine = firstLine.slice(BOM.length);
    this.delimiter = sniff(
      firstLine.endsWith('\r') ? firstLine.slice(0, -1) : firstLine,
      this.expected,
      whole && firstLine.length <= MAX_LINE_CHARS,
    ).delimiter;
    return true;
  }

  private lines(final: boolean): void {
    const text = this.rest;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      // The end of a line already rejected as over-long: its line number is already counted.
      if (this.skipping) this.skipping = false;
      else this.line(text.slice(start, nl));
      start = nl + 1;
    }
    this.rest = this.skipping ? '' : text.slice(start);
    // A line without its LF yet is held in memory: past the bound it is rejected now and the rest
    // of it dropped as it arrives (a regime file of garbage must not grow the importer).
    if (this.rest.length > MAX_LINE_CHARS) {
      this.overLong(this.rest);
      this.rest = '';
      this.skipping = true;
    }
    if (final && this.rest !== '') {
      const last = this.rest;
      this.rest = '';
      this.line(last);
    }
  }

  private overLong(raw: string): void {
    this.onReject({
      raw: raw.slice(0, 200),
      recordNo: ++this.recordNo,
      line: ++this.lineNo,
      reason: `line longer than ${MAX_LINE_CHARS} characters (dropped)`,
    });
  }

  private line(raw: string): void {
    const delimiter = this.delimiter!;
    const n = this.expected.length;
    // Same verdict whatever the chunking: a complete over-long line is rejected whole.
    if (raw.length > MAX_LINE_CHARS) return this.overLong(raw);
    const lineNo = ++this.lineNo;
    // A byte-order mark starts the file, or each of the per-year files concatenated into it (quirk 22).
    if (raw.startsWith(BOM)) raw = raw.slice(BOM.length);
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    const fields = line.includes('"') ? parseQuotedLine(line, delimiter) : line.split(delimiter);
    // Header lines (the first one, or repeated when per-year files were concatenated) are dropped.
    if (
      !/^\s*\d/.test(line) &&
      fields.length === n &&
      fields.map(normalizeHeaderCell).join('\u0000') === this.headerKey
    )
      return;
    const recordNo = ++this.recordNo;
    if (fields.length !== n) {
      this.onReject({ raw: line, recordNo, line: lineNo, reason: `expected ${n} fields, found ${fields.length}` });
      return;
    }
    if (NEEDS_DECODING.test(line)) for (let i = 0; i < n; i++) fields[i] = decodeField(fields[i]);
    this.onRecord(fields, recordNo, lineNo);
  }
}

/** One line with quotes, parsed by csv-parse (lenient: stray quotes are kept as text). */
function parseQuotedLine(line: string, delimiter: string): string[] {
  const rows = parse(line, {
    delimiter,
    quote: '"',
    escape: null,
    relax_quotes: true,
    relax_column_count: true,
  }) as string[][];
  return rows[0] ?? [];
}
