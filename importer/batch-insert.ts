// Appends rows to one snapshot table through a multi-row INSERT: one statement execution per
// group of rows instead of one per row. The fixed cost of a better-sqlite3 `run()` (the call into
// the addon, step + reset, the result object) then counts once per group. Measured: inserting alone
// is much faster for the narrow tables, and the establishments load faster (docs/benchmarks.md).
// Rows keep their order (the de-duplication keeps the row inserted last).
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../src/storage/sqlite.ts';
import { digitsColumns, insertSql, insertWidth, type TableDef } from '../src/storage/snapshots/tables.ts';
import { rowDigest } from './row-digest.ts';
import type { SqlParam } from './tables/source-table.ts';

/** About 256 parameters per statement: 9 establishments rows, 36 companies rows (measured best). */
const PARAMS_PER_STATEMENT = 256;

export class BatchInserter {
  private readonly width: number;
  /** The table's own columns: the digest, when the table has one, follows them. */
  private readonly columns: number;
  private readonly digest: boolean;
  /** The DIGITS columns: a number there is bound as a BigInt, else SQLite would store a REAL. */
  private readonly digits: number[];
  private readonly rowsPerGroup: number;
  private readonly group: Statement<SqlParam[]>;
  private readonly single: Statement<SqlParam[]>;
  /** The pending rows, flattened in column order: bound as the group statement's parameters. */
  private readonly values: SqlParam[];
  private pending = 0;

  constructor(db: Sqlite, table: TableDef) {
    this.width = insertWidth(table);
    this.columns = table.columns.length;
    this.digest = table.digest === true;
    this.digits = digitsColumns(table);
    this.rowsPerGroup = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / this.width));
    this.group = db.prepare<SqlParam[]>(insertSql(table, this.rowsPerGroup));
    this.single = db.prepare<SqlParam[]>(insertSql(table));
    this.values = new Array<SqlParam>(this.width * this.rowsPerGroup).fill(null);
  }

  add(row: readonly SqlParam[]): void {
    const n = this.columns;
    const at = this.pending * this.width;
    for (let i = 0; i < n; i++) this.values[at + i] = row[i];
    // Converted here, not by the field rule: the digest below hashes the number as before, so a
    // row imported by an earlier version still compares equal (importer/history/pair.ts).
    for (const i of this.digits) {
      const v = row[i];
      if (typeof v === 'number') this.values[at + i] = BigInt(v);
    }
    // The key (column 0) is not part of the digest: the index holds it beside.
    if (this.digest) this.values[at + n] = rowDigest(row, 1, n);
    if (++this.pending === this.rowsPerGroup) {
      // Spread, not run(array): better-sqlite3 binds call arguments faster than array elements.
      this.group.run(...this.values);
      this.pending = 0;
    }
  }

  /** Writes the rows still pending (call before the table's last COMMIT). */
  flush(): void {
    const w = this.width;
    for (let r = 0; r < this.pending; r++) this.single.run(...this.values.slice(r * w, r * w + w));
    this.pending = 0;
  }
}
