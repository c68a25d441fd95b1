// The rows of one establishment as the reader serves them: the caller's column selection, the
// single statement that fetches them as one JSON text, and the builders that turn its arrays into
// row objects. Types come from the table definitions (storage/snapshots/tables.ts).
import {
  companies,
  establishments,
  partners,
  regimes,
  simples,
  type CompanyRow,
  type EstablishmentRow,
  type PartnerRow,
  type RegimeRow,
  type SimplesRow,
} from '../../storage/snapshots/tables.ts';

/** The columns a caller reads, per table: the reader fetches these and no others. */
export interface ColumnSelection {
  readonly establishment: readonly (keyof EstablishmentRow)[];
  readonly company: readonly (keyof CompanyRow)[];
  readonly simples: readonly (keyof SimplesRow)[];
  readonly partner: readonly (keyof PartnerRow)[];
  readonly regime: readonly (keyof RegimeRow)[];
}

type Picked<R, K extends readonly PropertyKey[]> = Pick<R, Extract<K[number], keyof R>>;

/** One establishment with its company, Simples option, partners and regimes: the selected columns. */
export interface RegistryRows<C extends ColumnSelection> {
  establishment: Picked<EstablishmentRow, C['establishment']>;
  company: Picked<CompanyRow, C['company']> | null;
  simples: Picked<SimplesRow, C['simples']> | null;
  partners: Picked<PartnerRow, C['partner']>[];
  regimes: Picked<RegimeRow, C['regime']>[];
}

/**
 * The whole lookup in ONE statement: SQLite writes the establishment, its company, Simples,
 * partners and regimes as one JSON text of arrays (only the selected columns, see
 * ColumnSelection), and JSON.parse turns it into values. Five statements returning rows took
 * longer than this one with the parse (docs/benchmarks.md): better-sqlite3 creates each column's
 * value through V8's API one by one, JSON.parse makes them all in one pass.
 * Names come from tables.ts and the caller's selection (our own code), never from input.
 */
function lookupSql(m: ColumnSelection, importOrder: boolean): string {
  const base = 'substr(e.cnpj, 1, 8)';
  const parts = [
    cols(m.establishment, 'e.'),
    one(m.company, companies.name, base),
    one(m.simples, simples.name, base),
    importOrder ? allInOrder(m.partner, partners.name, base) : all(m.partner, partners.name, base),
    all(m.regime, regimes.name, base),
  ];
  return `SELECT '[' || ${parts.join(" || ',' || ")} || ']' FROM est.${establishments.name} e WHERE e.cnpj = ?`;
}

const cols = (names: readonly string[], prefix = '') =>
  `json_array(${columnNames(names)
    .map((n) => prefix + n)
    .join(', ')})`;
/** The row of a table keyed by the 8-character base, as a JSON array ('null' when absent). */
const one = (names: readonly string[], table: string, base: string) =>
  `ifnull((SELECT ${cols(names)} FROM reg.${table} WHERE basico = ${base}), 'null')`;
/** All rows of a table for the base, as a JSON array of arrays. */
const all = (names: readonly string[], table: string, base: string) =>
  `(SELECT json_group_array(${cols(names)}) FROM reg.${table} WHERE basico = ${base})`;
/** The same in the order the rows were imported (rowid): the index alone gives them in digest order. */
const allInOrder = (names: readonly string[], table: string, base: string) =>
  `(SELECT json_group_array(${cols(names)}) FROM (SELECT ${columnNames(names).join(', ')} FROM reg.${table} WHERE basico = ${base} ORDER BY rowid))`;

/** What every establishment of one base shares (company, Simples, regimes), in one JSON text; the base is bound three times. */
export function baseSql(m: ColumnSelection): string {
  return `SELECT '[' || ${[one(m.company, companies.name, '?'), one(m.simples, simples.name, '?'), all(m.regime, regimes.name, '?')].join(" || ',' || ")} || ']'`;
}

/** Column names go into generated code: plain identifiers only. */
export function columnNames(names: readonly string[]): readonly string[] {
  for (const n of names) if (!/^[a-z_][a-z0-9_]*$/.test(n)) throw new Error(`unexpected column name ${n}`);
  return names;
}

/** Array of values (in `names` order) → row object, through a generated object literal. */
export function hydrator<R>(names: readonly string[]): (values: unknown[]) => R {
  return new Function(
    'v',
    `return { ${columnNames(names)
      .map((n, i) => `${n}: v[${i}]`)
      .join(', ')} };`,
  ) as (values: unknown[]) => R;
}

type LookupJson = [unknown[], unknown[] | null, unknown[] | null, unknown[][], unknown[][]];

/** The statement for one column selection and the reading of its one JSON text, made once per reader. */
export interface Compiled<C extends ColumnSelection> {
  columns: C;
  sql: string;
  /** The statement's JSON text → row objects. */
  rows(text: string): RegistryRows<C>;
}

/**
 * `partnersInImportOrder`: partners in the dump's order (an ORDER BY over the base's few rows),
 * for answers that show them unsorted; the native lookup sorts them itself and skips it.
 */
export function compile<C extends ColumnSelection>(columns: C, partnersInImportOrder = false): Compiled<C> {
  type Rows = RegistryRows<C>;
  const establishment = hydrator<Rows['establishment']>(columns.establishment);
  const company = hydrator<NonNullable<Rows['company']>>(columns.company);
  const simples = hydrator<NonNullable<Rows['simples']>>(columns.simples);
  const partner = hydrator<Rows['partners'][number]>(columns.partner);
  const regime = hydrator<Rows['regimes'][number]>(columns.regime);
  return {
    columns,
    sql: lookupSql(columns, partnersInImportOrder),
    rows(text) {
      const [e, c, s, p, r] = JSON.parse(text) as LookupJson;
      return {
        establishment: establishment(e),
        company: c === null ? null : company(c),
        simples: s === null ? null : simples(s),
        partners: p.map(partner),
        regimes: r.map(regime),
      };
    },
  };
}
