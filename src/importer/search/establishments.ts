// Step 1 of the search build: one FTS document per establishment (domain/search/document.ts), and
// the count tables fed from the same rows (aggregates.ts).
//
// Order. FTS5 wants rowids ascending within what it holds in memory: a smaller rowid flushes its
// pending terms as a new segment, so establishments fed in random order would make one segment
// per row. Walking the `cnpj` index gives CNPJ order but reads the table pages at random (the
// table is in dump order): at full size that is one 16 KB page read per row. So the table is read
// in its own order, in chunks of CHUNK rows, each chunk sorted by CNPJ by SQLite (in memory) and
// indexed: one segment per chunk, merged once at the end ('optimize', build.ts).
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../storage/sqlite.ts';
import { DOCUMENT_COLUMNS, documentText, documentValues } from '../../domain/search/document.ts';
import { rowidOfCnpj } from '../../domain/search/rowid.ts';
import type { Aggregates } from './aggregates.ts';

/** Rows per sorted chunk: ~250 segments at full size (FTS5 allows 2,000), ~100 MB of memory. */
export const CHUNK = 250_000;
const ROWS_PER_INSERT = 64;

// `+e.cnpj`: sort the chunk, rather than walk the cnpj index (random table reads, see above).
const SELECT = `
  SELECT ${DOCUMENT_COLUMNS.join(', ')}
  FROM est.establishments e
  LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8)
  LEFT JOIN reg.simples s ON s.basico = substr(e.cnpj, 1, 8)
  WHERE e.rowid > ? AND e.rowid <= ?
  ORDER BY +e.cnpj`;

/** Indexes the establishments whose rowid is in `range(max rowid)`; returns how many. */
export async function indexEstablishments(
  read: Sqlite,
  write: Sqlite,
  agg: Aggregates,
  range: (maxRowid: number) => [number, number],
  onProgress: (done: number) => void,
): Promise<number> {
  // Raw arrays: better-sqlite3 builds a row object through V8's API column by column (3 µs a row).
  const select = read.prepare<[number, number], unknown[]>(SELECT).raw(true);
  const maxRowid = (read.prepare('SELECT max(rowid) AS m FROM est.establishments').get() as { m: number | null }).m ?? 0;
  const insert = new FtsInserter(write, 'est_fts');
  const [first, last] = range(maxRowid);
  let done = 0;
  for (let from = first; from < last; from += CHUNK) {
    write.exec('BEGIN');
    for (const r of select.iterate(from, Math.min(from + CHUNK, last))) {
      const v = documentValues(r);
      insert.add(rowidOfCnpj(v.cnpj), documentText(v));
      agg.add(v);
      done++;
    }
    insert.flush();
    write.exec('COMMIT');
    onProgress(done);
    // Let the progress message out: the build is otherwise synchronous.
    await new Promise(setImmediate);
  }
  return done;
}

/** Multi-row INSERTs into an FTS table: one statement run per ROWS_PER_INSERT documents. */
export class FtsInserter {
  private readonly many: Statement<unknown[]>;
  private readonly one: Statement<unknown[]>;
  private readonly values: unknown[] = [];

  constructor(db: Sqlite, table: string) {
    const row = '(?, ?)';
    this.many = db.prepare(`INSERT INTO ${table} (rowid, doc) VALUES ${Array(ROWS_PER_INSERT).fill(row).join(', ')}`);
    this.one = db.prepare(`INSERT INTO ${table} (rowid, doc) VALUES ${row}`);
  }

  add(rowid: bigint | number, doc: string): void {
    this.values.push(rowid, doc);
    if (this.values.length === ROWS_PER_INSERT * 2) {
      this.many.run(...this.values);
      this.values.length = 0;
    }
  }

  flush(): void {
    for (let i = 0; i < this.values.length; i += 2) this.one.run(this.values[i], this.values[i + 1]);
    this.values.length = 0;
  }
}
