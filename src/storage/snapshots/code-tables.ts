// The six code tables of a snapshot (cnaes, motivos, municípios, naturezas, países, qualificações)
// read whole into maps: a few thousand rows, read once per opened snapshot, by the server's reader
// and by the import's monthly comparison.
import type { Sqlite } from '../sqlite.ts';
import { CODE_TABLES, type CodeTable } from './tables.ts';

/** Each code table: code → description. */
export type CodeTables = Record<CodeTable, ReadonlyMap<number, string>>;

/** The code tables of the snapshot attached as `schema` (its companies file). */
export function readCodeTables(sqlite: Sqlite, schema: string): CodeTables {
  const tables = {} as Record<CodeTable, Map<number, string>>;
  for (const t of CODE_TABLES) {
    const m = new Map<number, string>();
    for (const [code, description] of sqlite.prepare(`SELECT code, description FROM ${schema}.${t}`).raw().all() as [
      unknown,
      unknown,
    ][]) {
      if (typeof code === 'number' && typeof description === 'string') m.set(code, description);
    }
    tables[t] = m;
  }
  return tables;
}
