// The `name_keys` table of a search part (domain/search/name-key.ts): (key, rowid) for each
// establishment's razão social and for a nome fantasia whose core words differ. The keys are
// made in the one JS call per row the document SQL already pays (establishments.ts search_row),
// held for one chunk, and written after it (the connection is busy while the chunk's INSERT
// runs) to an unindexed temp table; once every chunk is in, one sorted INSERT builds the
// WITHOUT ROWID table (appends in key order; the sort spills to temp files, so memory stays flat).
import type { Sqlite } from '../../src/storage/sqlite.ts';
import { coreWords, nameKey } from '../../src/domain/search/name-key.ts';
import { rowidOfCnpj } from '../../src/domain/search/rowid.ts';

export const NAME_KEYS_DDL =
  'CREATE TABLE name_keys (key INTEGER NOT NULL, rowid INTEGER NOT NULL, PRIMARY KEY (key, rowid)) WITHOUT ROWID';

export class NameKeys {
  private keys: number[] = [];
  private rowids: (number | bigint)[] = [];
  private ready = false;

  constructor(private readonly db: Sqlite) {}

  /** The keys of one establishment (called from SQL, while the chunk's INSERT runs). */
  add(cnpj: unknown, razao: unknown, fantasia: unknown): void {
    if (typeof cnpj !== 'string' || cnpj.length < 12) return;
    const rowid = rowidOfCnpj(cnpj);
    const r = typeof razao === 'string' ? coreWords(razao) : [];
    if (r.length) {
      this.keys.push(nameKey(r));
      this.rowids.push(rowid);
    }
    if (typeof fantasia !== 'string' || fantasia === '') return;
    const f = coreWords(fantasia);
    if (f.length && (f.length !== r.length || nameKey(f) !== nameKey(r))) {
      this.keys.push(nameKey(f));
      this.rowids.push(rowid);
    }
  }

  /** Writes the keys held (after a chunk). */
  flush(): void {
    if (!this.ready) {
      this.db.exec('CREATE TEMP TABLE name_keys_raw (key INTEGER NOT NULL, rowid INTEGER NOT NULL)');
      this.ready = true;
    }
    const insert = this.db.prepare('INSERT INTO temp.name_keys_raw VALUES (?, ?)');
    const { keys, rowids } = this;
    this.db.transaction(() => {
      for (let i = 0; i < keys.length; i++) insert.run(keys[i], rowids[i]);
    })();
    this.keys = [];
    this.rowids = [];
  }

  /** The sorted table, from the raw keys; returns how many. */
  finish(): number {
    this.flush();
    this.db.exec(NAME_KEYS_DDL);
    this.db.exec('INSERT OR IGNORE INTO name_keys SELECT key, rowid FROM temp.name_keys_raw ORDER BY key, rowid');
    this.db.exec('DROP TABLE temp.name_keys_raw');
    return (this.db.prepare('SELECT count(*) AS n FROM name_keys').get() as { n: number }).n;
  }
}
