// The name key tables of a search part (domain/search/name-key.ts): `name_keys`, (key, rowid) for
// each establishment's razão social and for a nome fantasia whose core words differ, and
// `partner_keys`, (key, rowid) for each partner row's name. The keys are made in a JS call per
// row of the document SQL (establishments.ts search_row, search_partner), held for one chunk,
// and written after it (the connection is busy while the chunk's INSERT runs) to an unindexed
// temp table; once every chunk is in, one sorted INSERT builds the WITHOUT ROWID table (appends
// in key order; the sort spills to temp files, so memory stays flat).
import type { Sqlite } from '../../src/storage/sqlite.ts';
import { coreWords, nameKey } from '../../src/domain/search/name-key.ts';
import { rowidOfCnpj } from '../../src/domain/search/rowid.ts';

const keysDdl = (table: string) =>
  `CREATE TABLE ${table} (key INTEGER NOT NULL, rowid INTEGER NOT NULL, PRIMARY KEY (key, rowid)) WITHOUT ROWID`;

export class NameKeys {
  private keys: number[] = [];
  private rowids: (number | bigint)[] = [];
  private ready = false;

  constructor(
    private readonly db: Sqlite,
    private readonly table: 'name_keys' | 'partner_keys' = 'name_keys',
  ) {}

  /** The key of one partner row's name (called from SQL, while the chunk's INSERT runs). */
  addName(rowid: unknown, name: unknown): void {
    if (typeof name !== 'string' || (typeof rowid !== 'number' && typeof rowid !== 'bigint')) return;
    const w = coreWords(name);
    if (!w.length) return;
    this.keys.push(nameKey(w));
    this.rowids.push(rowid);
  }

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
      this.db.exec(`CREATE TEMP TABLE ${this.table}_raw (key INTEGER NOT NULL, rowid INTEGER NOT NULL)`);
      this.ready = true;
    }
    const insert = this.db.prepare(`INSERT INTO temp.${this.table}_raw VALUES (?, ?)`);
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
    const t = this.table;
    this.db.exec(keysDdl(t));
    this.db.exec(`INSERT OR IGNORE INTO ${t} SELECT key, rowid FROM temp.${t}_raw ORDER BY key, rowid`);
    this.db.exec(`DROP TABLE temp.${t}_raw`);
    return (this.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
  }
}
