// What the compatibility shapes read: an establishment's rows (registry/compat-columns.ts, where
// the registry fetches them) and the month's code tables.
import type { CodeTables } from '../../storage/snapshots/code-tables.ts';
import type { RegistryInfo } from '../registry/reader.ts';

export { COMPAT_COLUMNS, type CompatRows } from '../registry/compat-columns.ts';

/** What a shape needs besides the rows: the month's code tables and where the data comes from. */
export interface CompatContext {
  readonly codeTables: CodeTables;
  /** The snapshot being served (month, import time). */
  readonly info: RegistryInfo;
  /** IBGE municipality code of a SIAFI code (domain/compat/ibge.ts); null when unknown. */
  ibge(siafi: number): number | null;
}
