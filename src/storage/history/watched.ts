// One month's changes of a list of CNPJs in ONE statement: the list goes in as JSON (json_each) and
// each CNPJ is two probes of the primary key (month, cnpj, campo): its own rows and its base's.
// The same rows and order as two reads per CNPJ (its own key, then its base), without a statement
// per key: many times cheaper per CNPJ (docs/benchmarks.md), which a 50,000-CNPJ list needs.
import type { Sqlite } from '../sqlite.ts';
import type { ChangeRow } from './schema.ts';

const FROM = `FROM json_each(?) j CROSS JOIN changes c
  WHERE c.month = ? AND c.cnpj IN (j.value, substr(j.value, 1, 8))`;

export interface WatchedRow extends ChangeRow {
  /** The listed CNPJ the row is shown under (its own row, or its base's). */
  shown: string;
}

/** Up to `limit` rows, per listed CNPJ in list order: its own rows, then its base's, each by campo. */
export function changesOfListInMonth(db: Sqlite, month: string, cnpjs: readonly string[], limit: number): WatchedRow[] {
  return db
    .prepare(
      `SELECT j.value AS shown, c.month, c.cnpj, c.tipo, c.campo, c.antes, c.depois ${FROM} ORDER BY j.key, length(c.cnpj) DESC, c.campo LIMIT ?`,
    )
    .all(JSON.stringify(cnpjs), month, limit) as WatchedRow[];
}

/** How many rows changesOfListInMonth would give without a limit. */
export function countOfListInMonth(db: Sqlite, month: string, cnpjs: readonly string[]): number {
  return db.prepare(`SELECT count(*) ${FROM}`).pluck().get(JSON.stringify(cnpjs), month) as number;
}
