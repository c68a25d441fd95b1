// What the index cannot answer exactly is checked on the row: the terms cut by a range filter
// (the row's value must be in the range), CEP prefixes longer than the 5-digit terms, and a last
// query word whose prefix expands to too many vocabulary words (prefix.ts MAX_EXPANSION; the row's
// names must hold a word starting with it).
//
// A query is run as one or more VARIANTS, each an FTS5 match with its own check (or none). A
// range filter splits into its whole terms (no check) and its cut terms (checked), as disjoint
// variants: one year/month term and one capital bucket per establishment, so no CNPJ is in two.
// Only the candidates of cut terms are then fetched, not every match (at most two months of a
// range of years). Page and count (page.ts, count.ts) read every variant and add them up.
import type { Statement } from 'better-sqlite3';
import type { Statements } from './index-tables.ts';
import type { Clause, Plan, RangeClause } from './plan.ts';
import { normalizeText } from './normalize.ts';
import { flagTerms } from './terms.ts';

/** The clause of a range filter's terms (the cut ones need the row check). */
export const rangeClause = (r: RangeClause, terms: string[] = [...r.whole, ...r.cut]): Clause => ({
  param: r.param === 'inicio_atividade' ? 'inicio_atividade_min' : 'capital_social_min',
  terms,
});

/** Every establishment holds exactly one flags term: their OR is every document. */
const EVERY_DOCUMENT: Clause = { param: 'q', terms: flagTerms({}) };

export interface Variant {
  /** Clauses for FTS5 (never empty). */
  clauses: Clause[];
  /** Whether a candidate passes; null when the index terms are exact. */
  check: ((cnpj: string) => boolean) | null;
}

/** The name prefixes of a plan that are checked on the row instead of looked up in the index. */
export const checkedPrefixes = (plan: Plan) => plan.clauses.filter((c) => c.checked).map((c) => c.prefix!);

/** A checked prefix as the index can answer it: the OR of its words, `word*` (prefix.ts), else null. */
const indexForm = (c: Clause): Clause | null =>
  c.switchMs === undefined
    ? null
    : c.terms.length
      ? { param: c.param, terms: c.terms }
      : { param: c.param, terms: [], prefix: c.prefix };

/** The plan with each checked prefix in its index form; null when one has none. */
export function indexOnly(plan: Plan): Plan | null {
  const clauses: Clause[] = [];
  for (const c of plan.clauses) {
    const form = c.checked ? indexForm(c) : c;
    if (form === null) return null;
    clauses.push(form);
  }
  return { ...plan, clauses };
}

/** The variants of a plan: the index clauses × each range's whole or cut terms. */
export function variantsOf(st: Statements, plan: Plan): Variant[] {
  const indexed = plan.clauses.filter((c) => !c.checked);
  const prefixes = checkedPrefixes(plan);
  let combos: { clauses: Clause[]; cut: RangeClause[] }[] = [{ clauses: indexed, cut: [] }];
  for (const r of plan.ranges) {
    combos = combos.flatMap((c) => [
      ...(r.whole.length ? [{ clauses: [...c.clauses, rangeClause(r, r.whole)], cut: c.cut }] : []),
      ...(r.cut.length ? [{ clauses: [...c.clauses, rangeClause(r, r.cut)], cut: [...c.cut, r] }] : []),
    ]);
  }
  return combos.map((c) => ({
    // A checked prefix alone has nothing to drive it in the index: every document is a candidate.
    clauses: c.clauses.length ? c.clauses : [EVERY_DOCUMENT],
    check: rowCheck(st, c.cut, plan.cep, prefixes),
  }));
}

/** Whether one of `words` (normalised, space-separated) starts with `prefix`. */
export const hasWordStarting = (words: string, prefix: string) => {
  for (let i = words.indexOf(prefix); i >= 0; i = words.indexOf(prefix, i + 1))
    if (i === 0 || words.charCodeAt(i - 1) === 32) return true;
  return false;
};

/** The check of a candidate row, or null when there is nothing to check. */
export function rowCheck(
  st: Statements,
  cut: readonly RangeClause[],
  cep: readonly string[] | null,
  prefixes: readonly string[],
): ((cnpj: string) => boolean) | null {
  if (!cut.length && cep === null && !prefixes.length) return null;
  const fetch = st
    .get(
      'SELECT e.data_inicio_atividade, c.capital_social_cents, e.cep, c.razao_social, e.nome_fantasia FROM est.establishments e ' +
        'LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8) WHERE e.cnpj = ?',
    )
    .raw(true) as Statement<[string], [unknown, unknown, unknown, unknown, unknown]>;
  const number = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : NaN);
  // A capital past 2^53 cents is the TEXT of its digits: as a BigInt, compared exactly with the
  // bounds (JS compares a BigInt with a number by value).
  const amount = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? BigInt(v) : number(v));
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return (cnpj) => {
    const row = fetch.get(cnpj);
    if (row === undefined) return false;
    for (const r of cut) {
      const n = r.param === 'inicio_atividade' ? number(row[0]) : amount(row[1]);
      if (!(n >= r.min && n <= r.max)) return false;
    }
    if (cep !== null) {
      // As the build reads it (importer/search/document-sql.ts): an integer, leading zeros restored.
      const n = number(row[2]);
      const digits = Number.isInteger(n) && n >= 0 && n < 1e8 ? String(n).padStart(8, '0') : null;
      if (digits === null || !cep.some((p) => digits.startsWith(p))) return false;
    }
    if (prefixes.length) {
      // The document's words as the build wrote them: razão social, a space, nome fantasia.
      const words = normalizeText(`${text(row[3])} ${text(row[4])}`);
      if (!prefixes.every((p) => hasWordStarting(words, p))) return false;
    }
    return true;
  };
}
