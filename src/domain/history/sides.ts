// One side of a comparison: a snapshot on its own read-only connection, its code tables, and its
// rows read in key order through the key indexes (the merge walk's input). Each row comes as its key
// and ONE JSON text of the mapping's columns, made by SQLite: equal texts are an unchanged record,
// told without creating a JavaScript value per column (only changed records are parsed).
import type { Statement } from 'better-sqlite3';
import { attachSnapshot } from '../../storage/snapshots/attach.ts';
import { openSqlite, type Sqlite } from '../../storage/sqlite.ts';
import { LOOKUP_TABLES, SNAPSHOT_MMAP_BYTES, companies, establishments, partners, simples, type LookupTable } from '../../storage/snapshots/tables.ts';
import { MAPPED_COLUMNS, type Lookups } from '../company/map.ts';
import { columnNames } from '../registry/rows.ts';

const json = (names: readonly string[], prefix: string) => `json_array(${columnNames(names).map((n) => prefix + n).join(', ')})`;

/** The statements, apart so a test can check their plans walk the key indexes (no sort). */
export const SIDE_SQL = {
  establishments: `SELECT e.cnpj, ${json(MAPPED_COLUMNS.establishment, 'e.')} FROM est.${establishments.name} e ORDER BY e.cnpj`,
  // Simples and partners by the base's index, one probe each per company, inside SQLite.
  companies: `SELECT c.basico, ${json(MAPPED_COLUMNS.company, 'c.')},
    (SELECT ${json(MAPPED_COLUMNS.simples, 's.')} FROM reg.${simples.name} s WHERE s.basico = c.basico),
    (SELECT json_group_array(${json(MAPPED_COLUMNS.partner, 'p.')}) FROM reg.${partners.name} p WHERE p.basico = c.basico)
    FROM reg.${companies.name} c ORDER BY c.basico`,
} as const;

/** [cnpj, establishment columns] */
export type EstablishmentSide = [string, string];
/** [basico, company columns, simples columns or null, partners' columns (array of arrays)] */
export type CompanySide = [string, string, string | null, string];

export class SnapshotSide {
  readonly lookups: Lookups;
  private readonly sqlite: Sqlite;

  constructor(readonly dir: string) {
    this.sqlite = openSqlite(':memory:');
    try {
      attachSnapshot(this.sqlite, dir);
      // Immutable files, read once front to back in key order: map them whole.
      for (const schema of ['est', 'reg']) this.sqlite.pragma(`${schema}.mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
      const lookups = {} as Record<LookupTable, Map<number, string>>;
      for (const t of LOOKUP_TABLES) {
        const m = new Map<number, string>();
        for (const [code, description] of this.sqlite.prepare(`SELECT code, description FROM reg.${t}`).raw().all() as [unknown, unknown][]) {
          if (typeof code === 'number' && typeof description === 'string') m.set(code, description);
        }
        lookups[t] = m;
      }
      this.lookups = lookups;
    } catch (err) {
      this.sqlite.close();
      throw err;
    }
  }

  private rows<R>(sql: string): IterableIterator<R> {
    return (this.sqlite.prepare(sql) as Statement<[], R>).raw(true).iterate() as IterableIterator<R>;
  }

  establishments(): IterableIterator<EstablishmentSide> {
    return this.rows<EstablishmentSide>(SIDE_SQL.establishments);
  }

  companies(): IterableIterator<CompanySide> {
    return this.rows<CompanySide>(SIDE_SQL.companies);
  }

  plan(sql: string): string[] {
    return (this.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail);
  }

  close(): void {
    this.sqlite.close();
  }
}

/**
 * Walks two key-ordered streams together (a merge join): `only` for a key on one side, `both` for
 * a key on both. Keys are ASCII (CNPJs, bases), so JavaScript's string order is SQLite's BINARY one.
 */
export function mergeWalk<R extends [string, ...unknown[]]>(
  before: Iterator<R>,
  after: Iterator<R>,
  on: { onlyBefore(r: R): void; onlyAfter(r: R): void; both(a: R, b: R): void },
): void {
  let a = before.next();
  let b = after.next();
  while (!a.done || !b.done) {
    if (b.done || (!a.done && a.value[0] < b.value[0])) {
      on.onlyBefore(a.value as R);
      a = before.next();
    } else if (a.done || b.value[0] < a.value[0]) {
      on.onlyAfter(b.value);
      b = after.next();
    } else {
      on.both(a.value, b.value);
      a = before.next();
      b = after.next();
    }
  }
}
