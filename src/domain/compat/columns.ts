// The rows the compatibility shapes (domain/compat/) read: every column of every table, since the
// four upstream answers between them show nearly all of the dump (fax, country, Simples dates, the
// partners' representatives, the regimes' years), derived from the table definitions. The native
// lookup keeps its own, narrower selection (domain/company/map.ts MAPPED_COLUMNS): a compat lookup
// pays for its extra columns, the native one does not. The shapes read them from the snapshot
// themselves (rows.ts), so the company registry knows nothing of them.
import {
  companies,
  establishments,
  partners,
  regimes,
  simples,
  type ColumnType,
  type RowOf,
} from '../../storage/snapshots/tables.ts';
import type { RegistryRows } from '../registry/rows.ts';

type Def = { readonly columns: readonly (readonly [string, ColumnType])[] };

/** Every column of a table but `basico` (the key the statement joins on, not shown by any shape). */
function allColumns<D extends Def>(def: D): readonly Exclude<keyof RowOf<D>, 'basico'>[] {
  return def.columns.map(([name]) => name).filter((n) => n !== 'basico') as Exclude<keyof RowOf<D>, 'basico'>[];
}

export const COMPAT_COLUMNS = {
  establishment: allColumns(establishments),
  company: allColumns(companies),
  simples: allColumns(simples),
  partner: allColumns(partners),
  regime: allColumns(regimes),
};

/**
 * One establishment as the compat shapes read it. Partners come in the order they were imported
 * (the dump's order, rowid), regimes in no particular order: each shape sorts what it shows.
 */
export type CompatRows = RegistryRows<typeof COMPAT_COLUMNS>;
