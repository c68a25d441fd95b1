// Reference implementation of the RecordParser interface on csv-parse: ~10x slower, used only to
// cross-check the hand-written parser (differential tests). Known legitimate differences:
//  - csv-parse ends a quoted field at the first `"` even when it is not followed by `;`/EOL
//    (relax_quotes keeps the quote as text but leaves quoted mode); RecordParser keeps scanning.
//  - an unterminated quote makes csv-parse fail for the rest of the input; RecordParser rejects the
//    first line of that record and resynchronises at the next line.
//  - wrong field count on a record spanning several lines: csv-parse rejects the whole record,
//    RecordParser only its first physical line (then parses the following lines again).
import { parse } from 'csv-parse/sync';
import type { RecordParserOptions, RejectedRecord } from './records.ts';
import { decodeField } from './decode.ts';

function countLf(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

interface CsvParseOutput {
  record: string[];
  raw: string;
  info: { lines: number };
}

export class CsvReferenceParser {
  private readonly chunks: Buffer[] = [];
  private accepted = 0;
  private rejectedN = 0;
  private ended = false;

  constructor(private readonly opts: RecordParserOptions) {}

  get records(): number {
    return this.accepted;
  }
  get rejected(): number {
    return this.rejectedN;
  }

  push(chunk: Buffer): void {
    if (this.ended) throw new Error('push() after end()');
    this.chunks.push(Buffer.from(chunk)); // copy: callers may reuse their buffers
  }

  /** Parses everything at once, so callbacks fire synchronously from end(). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const all = Buffer.concat(this.chunks);
    const clean = all.includes(0) ? all.filter((b) => b !== 0) : all;
    const out: CsvParseOutput[] = [];
    let failure: Error | undefined;
    try {
      const rows = parse(Buffer.from(clean), {
        delimiter: ';',
        quote: '"',
        escape: null,
        relax_quotes: true,
        relax_column_count: true,
        skip_empty_lines: true,
        bom: true,
        record_delimiter: ['\r\n', '\n'],
        encoding: 'latin1',
        raw: true,
        info: true,
      }) as unknown as CsvParseOutput[];
      out.push(...rows);
    } catch (err) {
      failure = err as Error;
    }
    let recordNo = 0;
    // Line numbers are located in the text itself: csv-parse's info.lines counts a CRLF inside a quoted
    // field twice, and whether `raw` carries blank lines/delimiters varies.
    const text = clean.toString('latin1');
    let cursor = 0;
    let line = 1;
    for (const row of out) {
      const raw = row.raw.replace(/^[\r\n]+/, '').replace(/\r?\n$|\r$/, '');
      let start = text.indexOf(raw, cursor);
      if (start === -1) start = cursor;
      line += countLf(text.slice(cursor, start));
      const recordLine = line;
      line += countLf(raw);
      cursor = start + raw.length;
      recordNo++;
      if (row.record.length !== this.opts.expectedFields) {
        this.rejectedN++;
        const r: RejectedRecord = {
          raw,
          recordNo,
          line: recordLine,
          reason: `expected ${this.opts.expectedFields} fields, found ${row.record.length}`,
        };
        this.opts.onReject(r);
      } else {
        this.accepted++;
        this.opts.onRecord(row.record.map(decodeField), recordNo, recordLine);
      }
    }
    if (failure) {
      this.rejectedN++;
      this.opts.onReject({ raw: '', recordNo: recordNo + 1, line: -1, reason: `csv-parse: ${failure.message}` });
    }
  }
}
