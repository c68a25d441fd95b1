// The establishments of one root (the CNPJ's first 8 characters) as the reader serves them: range
// reads on the establishments' cnpj index, in CNPJ order, so a page after a given CNPJ costs the
// same wherever it starts (keyset paging), and the rows every establishment of the root shares
// (company, Simples, regimes) read once per page. Rows only: the order of the listing and the
// response are the caller's (domain/company/establishments.ts).
import type { Sqlite } from '../../storage/sqlite.ts';
import { establishments } from '../../storage/snapshots/tables.ts';
import { baseSql, columnNames, hydrator, type ColumnSelection, type RegistryRows } from './rows.ts';

type Establishment<C extends ColumnSelection> = RegistryRows<C>['establishment'];
export type BaseRows<C extends ColumnSelection> = Pick<RegistryRows<C>, 'company' | 'simples' | 'regimes'>;

/**
 * Every CNPJ of a root sorts between the root and the root followed by `~`: the 9th character is
 * one of [0-9A-Z], all below `~` in the binary collation the column uses.
 */
export const rootEnd = (root: string) => `${root}~`;

export interface RootRows<C extends ColumnSelection> {
  /** Whether a normalised CNPJ has an establishment row. */
  has(cnpj: string): boolean;
  /** The root's first head office (matriz) in CNPJ order; null when it has none. */
  headOffice(root: string): Establishment<C> | null;
  /** Up to `limit` establishments of the root after the CNPJ `after` (the root itself: from the start), skipping `skip`. */
  after(root: string, after: string, skip: string | null, limit: number): Establishment<C>[];
  /** The rows the root's establishments share. */
  base(root: string): BaseRows<C>;
}

/** The statements, apart so a test can read their query plans. */
export function rootRowsSql(columns: ColumnSelection) {
  const estCols = columnNames(columns.establishment)
    .map((n) => `e.${n}`)
    .join(', ');
  const from = `FROM est.${establishments.name} e`;
  return {
    exists: `SELECT 1 ${from} WHERE e.cnpj = ?`,
    // The index walks the range in order and stops at the first head office: one step for the
    // usual root, whose head office is order 0001 and so sorts first.
    headOffice: `SELECT ${estCols} ${from} WHERE e.cnpj > ? AND e.cnpj < ? AND e.matriz_filial = 1 ORDER BY e.cnpj LIMIT 1`,
    after: `SELECT ${estCols} ${from} WHERE e.cnpj > ? AND e.cnpj < ? AND e.cnpj IS NOT ? ORDER BY e.cnpj LIMIT ?`,
    base: baseSql(columns),
  };
}

export function prepareRootRows<C extends ColumnSelection>(sqlite: Sqlite, columns: C): RootRows<C> {
  const sql = rootRowsSql(columns);
  const exists = sqlite.prepare<[string], number>(sql.exists).pluck();
  const head = sqlite.prepare<[string, string], unknown[]>(sql.headOffice).raw();
  const range = sqlite.prepare<[string, string, string | null, number], unknown[]>(sql.after).raw();
  const base = sqlite.prepare<[string, string, string], string>(sql.base).pluck();
  const establishment = hydrator<Establishment<C>>(columns.establishment);
  const company = hydrator<NonNullable<BaseRows<C>['company']>>(columns.company);
  const simples = hydrator<NonNullable<BaseRows<C>['simples']>>(columns.simples);
  const regime = hydrator<BaseRows<C>['regimes'][number]>(columns.regime);
  return {
    has: (cnpj) => exists.get(cnpj) !== undefined,
    headOffice(root) {
      const row = head.get(root, rootEnd(root));
      return row === undefined ? null : establishment(row);
    },
    after: (root, after, skip, limit) => range.all(after, rootEnd(root), skip, limit).map(establishment),
    base(root) {
      const [c, s, r] = JSON.parse(base.get(root, root, root)!) as [unknown[] | null, unknown[] | null, unknown[][]];
      return {
        company: c === null ? null : company(c),
        simples: s === null ? null : simples(s),
        regimes: r.map(regime),
      };
    },
  };
}
