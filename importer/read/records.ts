// Streaming parser for the Receita Federal CSV dialect: `;` separator, every field quoted with `"`,
// no header, no escape character, LF (CRLF tolerated), Latin-1. This is the import hot path: a
// per-line fast path (indexOf/slice on a latin1 string) handles ~all rows; a careful state machine
// handles the quirks (docs/receita-dump.md, §7) and never lets one bad record shift columns or abort the file.
// The splitting itself is in split.ts, the decoding of non-ASCII fields in decode.ts.

import { isAscii } from 'node:buffer';
import {
  CR,
  countLf,
  fastSplit,
  LF,
  MAX_LINE_CHARS,
  MAX_RECORD_CHARS,
  MAX_RECORD_LINES,
  NEED_MORE,
  parseSlow,
  QUOTE,
  UNTERMINATED,
} from './split.ts';
import { BOM, decodeField, NEEDS_DECODING } from './decode.ts';

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
  /** true when neither the leftover nor the new chunk has bytes ≥ 0x80: skip the decoding scan entirely */
  private pureAscii = false;
  private leftoverClean = true;
  private ended = false;
  /** Nothing processed yet: a byte-order mark may still be ahead. */
  private atStart = true;
  private readonly suspectRe = new RegExp(NEEDS_DECODING.source, 'g');

  constructor(opts: RecordParserOptions) {
    if (!Number.isInteger(opts.expectedFields) || opts.expectedFields < 1)
      throw new RangeError('expectedFields must be a positive integer');
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
    // Native SIMD check: most chunks of the big files are plain ASCII and need no decoding scan.
    this.pureAscii = this.leftoverClean && isAscii(chunk);
    let s = chunk.toString('latin1');
    if (s.indexOf('\0') !== -1) s = s.replace(/\0/g, ''); // quirk 3: NULs anywhere
    this.buf = this.buf.length === 0 ? s : this.buf + s;
    if (this.atStart && !this.skipBom(false)) {
      this.leftoverClean = false; // the held bytes are not ASCII: the next chunk is scanned
      return;
    }
    this.process(false);
  }

  end(): void {
    if (this.ended) return;
    if (this.atStart) this.skipBom(true);
    this.process(true);
    this.ended = true;
  }

  /** Drops a byte-order mark at the start of the member; false while the first bytes could still be one. */
  private skipBom(final: boolean): boolean {
    if (!final && this.buf.length < BOM.length && BOM.startsWith(this.buf)) return false;
    if (this.buf.startsWith(BOM)) this.buf = this.buf.slice(BOM.length);
    this.atStart = false;
    return true;
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
            for (let k = 0; k < fields.length; k++) fields[k] = decodeField(fields[k]);
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
        this.reject(
          s.slice(pos, end),
          line,
          `unclosed quote (quoted field longer than ${MAX_RECORD_CHARS} characters or reaching the end of the file)`,
        );
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
        const why =
          spanned > MAX_RECORD_LINES
            ? `record longer than ${MAX_RECORD_LINES} lines (unclosed quote?)`
            : `expected ${n} fields, found ${r.fields.length}` +
              (spanned > 0 ? ` (record of ${spanned + 1} lines; its first line rejected)` : '');
        this.reject(s.slice(pos, end), line, why);
        pos = nl + 1;
        line++;
        continue;
      }
      const fields = r.fields;
      if (suspect < recEnd) {
        for (let k = 0; k < fields.length; k++) fields[k] = decodeField(fields[k]);
      }
      this.accept(fields, line);
      line += lfs;
      pos = r.next;
    }

    this.buf = pos >= len ? '' : s.slice(pos);
    this.leftoverClean = !NEEDS_DECODING.test(this.buf);
    this.lineNo = line;
  }
}
