// What the compatibility shapes read: an establishment's rows (columns.ts), read here from the
// snapshot being served, and the month's code tables.
import type { CodeTables } from '../../storage/snapshots/code-tables.ts';
import type { CompanyRegistry } from '../company/lookup.ts';
import type { MAPPED_COLUMNS } from '../company/map.ts';
import type { OpenSnapshot, RegistryInfo } from '../registry/reader.ts';
import { compile } from '../registry/rows.ts';
import { COMPAT_COLUMNS, type CompatRows } from './columns.ts';

export { COMPAT_COLUMNS, type CompatRows };

const COMPAT_COMPILED = compile(COMPAT_COLUMNS, true);

/**
 * The compat shapes' rows of a normalised CNPJ with the snapshot they come from (its code tables,
 * its month); null when absent or no registry.
 */
export function compatRowsOf(
  registry: CompanyRegistry,
  cnpj: string,
): { rows: CompatRows; snapshot: OpenSnapshot<typeof MAPPED_COLUMNS> } | null {
  const snap = registry.snapshot;
  if (snap === null) return null;
  const rows = snap.rowsOf(COMPAT_COMPILED, cnpj);
  return rows === null ? null : { rows, snapshot: snap };
}

/** What a shape needs besides the rows: the month's code tables and where the data comes from. */
export interface CompatContext {
  readonly codeTables: CodeTables;
  /** The snapshot being served (month, import time). */
  readonly info: RegistryInfo;
  /** IBGE municipality code of a SIAFI code (domain/compat/ibge.ts); null when unknown. */
  ibge(siafi: number): number | null;
}
