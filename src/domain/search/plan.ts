// The shape of a query plan (match.ts makes it, page.ts and count.ts run it) and its FTS5 text:
// an AND of clauses, each an OR of exact terms (terms.ts) or a prefix, plus the range filters
// split into the terms they cover whole and the terms cut by their ends (whose documents need an
// exact check of the row). Every term is quoted here, so no request text ever reaches FTS5's
// query syntax.
import type { FLAG } from './terms.ts';
import type { CompanyFilters, PartnerFilters } from './filters.ts';

/** What the plan needs to know about the index (implemented over search.db by index.ts). */
export interface IndexTables {
  /** Vocabulary words starting with `prefix`, at most `max + 1` of them. */
  wordsWithPrefix(prefix: string, max: number): string[];
  /**
   * Documents (establishments or partner rows) whose names hold a word starting with `prefix`
   * (summed over its words, so a name with two such words counts twice), or `max + 1` when more;
   * null when the index does not keep its words' counts.
   */
  prefixDocuments(prefix: string, max: number, names: NameDocuments): number | null;
  /** The length of the name prefix terms these names' documents hold (terms.ts), null when none. */
  prefixIndex(names: NameDocuments): number | null;
  /** Index terms starting with `prefix` (CEP terms only, few). */
  termsWithPrefix(prefix: string): string[];
  /** CNAE codes present whose 7 digits start with `prefix`. */
  cnaeCodes(prefix: string): number[];
  /** Codes of the municípios with this normalised name, in these UFs (all when empty). */
  municipioCodes(name: string, ufs: readonly string[]): number[];
  /** The year/month or capital-bucket terms present (`_y`, `_k`) with their document counts. */
  rangeTerms(kind: '_y' | '_k'): ReadonlyMap<string, number>;
}

/** Whose names a word query is about: company search (`q`) or partner search (`nome`). */
export type NameDocuments = 'establishments' | 'partners';

/**
 * One clause: OR of exact terms, or a prefix query (`word*`) when `prefix` is set, or, when
 * `checked` too, a prefix the row's names are checked against (never sent to FTS5 as such; its
 * `terms`, when any, are its words for an OR instead).
 */
export interface Clause {
  param: keyof CompanyFilters | keyof PartnerFilters;
  terms: string[];
  prefix?: string;
  checked?: boolean;
  /**
   * A checked prefix that has an index form (the OR of its `terms`, else `word*`): what that
   * form should cost, in ms, which is how long its row checks may run before it takes over
   * (page.ts).
   */
  switchMs?: number;
  /** The yes/no filters a flags clause stands for (terms.ts FLAG). */
  flags?: Partial<Record<keyof typeof FLAG, boolean>>;
}

/** A range filter: terms fully inside [min, max], and terms cut by it (rows to check). */
export interface RangeClause {
  param: 'inicio_atividade' | 'capital_social';
  min: number;
  max: number;
  whole: string[];
  cut: string[];
}

export interface Plan {
  clauses: Clause[];
  ranges: RangeClause[];
  /** CEP prefixes a row must start with, when one is longer than the 5-digit terms (else null). */
  cep: string[] | null;
  /** A clause with no term: nothing can match. */
  empty: boolean;
}

const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;

/** The FTS5 syntax of one clause. */
export function clauseSql(c: Clause): string {
  if (c.checked) throw new Error('a checked prefix is not an index clause');
  if (c.prefix !== undefined) return `${quote(c.prefix)}*`;
  return c.terms.length === 1 ? quote(c.terms[0]) : `(${c.terms.map(quote).join(' OR ')})`;
}

/** The MATCH text of clauses (AND); null when there is none. */
export function matchSql(clauses: readonly Clause[]): string | null {
  return clauses.length ? clauses.map(clauseSql).join(' AND ') : null;
}
