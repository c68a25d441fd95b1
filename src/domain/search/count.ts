// `count`: how many establishments match. FTS5 counts by walking every match (a cost per match:
// too slow for a broad filter at full size, docs/benchmarks.md), so:
// - filters the count tables cover (no `q`: UF with situation, head office, size, legal nature,
//   Simples/MEI/e-mail/telephone; or município with situation, head office, size; or a primary
//   CNAE with UF, situation, head office) are summed from them: exact, in ms;
// - a range filter alone is summed from term_docs (whole years, months, buckets), plus the rows
//   of its cut terms checked one by one;
// - anything else is counted through the FTS index, variant by variant (checks.ts), exactly; with
//   `q` it stops past `bound` and says `exact: false` (a name query can match millions: "ltda"),
//   and also after COUNT_SCAN_BUDGET candidates fail a checked name prefix (the count a minimum);
// - whatever the filters, a count through the index stops once it has run `ms` (COUNT_MS): it
//   walks its matches in slices of COUNT_SLICE and looks at the clock between them, so no count
//   holds the event loop much past its budget (the count so far, `exact: false`: a minimum).
import type { CompanyFilters } from './filters.ts';
import type { Statements } from './index-tables.ts';
import { matchSql, type Clause, type Plan } from './plan.ts';
import { cnpjOfRowid } from './rowid.ts';
import type { FLAG } from './terms.ts';
import { checkedPrefixes, indexOnly, rangeClause, rowCheck, variantsOf } from './checks.ts';

export interface Count {
  count: number;
  exact: boolean;
  /** Where it came from (logs, tests, benchmarks; not for the API's answer). */
  source: 'tables' | 'index';
}

export const DEFAULT_COUNT_BOUND = 100_000;
/**
 * Rejections of a checked name prefix after which a count with `q` stops: bounds the time of its
 * row checks (docs/benchmarks.md).
 */
export const COUNT_SCAN_BUDGET = 50_000;
/** The most a count spends on a checked prefix's `word*` (plan.ts switchMs), in ms. */
const COUNT_STAR_MS = 500;
/**
 * How long a count through the index may walk matches, in ms: then it answers the count so far,
 * `exact: false`. Under the ~250 ms a request may hold a worker (issue #46): a count over filters
 * the count tables do not cover once walked millions of matches for seconds.
 */
export const COUNT_MS = 200;
/**
 * Matches walked between two looks at the clock: ~130 ns each warm, so a few ms; cold on a full
 * month a slice costs far more (with 100,000, bench:budget's counts ran past 250 ms 4 times in 10).
 */
export const COUNT_SLICE = 10_000;

/** How much a count may walk: `ms` in all, looking at the clock every `slice` matches (tests: small slices). */
export interface CountBudget {
  ms: number;
  slice: number;
}

/** When a count stops: past `until` (performance.now()), the count then not exact. */
class Deadline {
  private readonly until: number;
  readonly slice: number;
  expired = false;
  constructor(budget: CountBudget) {
    this.until = performance.now() + budget.ms;
    this.slice = budget.slice;
  }
  passed(): boolean {
    if (!this.expired && performance.now() >= this.until) this.expired = true;
    return this.expired;
  }
}

/** Count-table columns of each clause, and how a term of that clause gives the column's value. */
const COLUMNS: Partial<Record<Clause['param'], [string, (t: string) => string | number]>> = {
  uf: ['uf', (t) => t.slice(2).toUpperCase()],
  municipio: ['municipio', (t) => Number(t.slice(2))],
  situacao_cadastral: ['situacao', (t) => Number(t.slice(2))],
  matriz_filial: ['matriz_filial', (t) => Number(t.slice(2))],
  porte: ['porte', (t) => Number(t.slice(2))],
  natureza_juridica: ['natureza', (t) => Number(t.slice(2))],
};
/** Count-table columns of the yes/no filters (one flags clause stands for all of them). */
const FLAG_COLUMNS: Record<keyof typeof FLAG, string> = {
  opc_simples: 'simples',
  opc_mei: 'mei',
  has_email: 'email',
  has_telefone: 'telefone',
};
/** The count tables (storage/snapshots/search-schema.ts) and the filters each covers, tried in this order. */
const TABLES: [string, Set<Clause['param']>][] = [
  [
    'agg_uf',
    new Set([
      'uf',
      'situacao_cadastral',
      'matriz_filial',
      'porte',
      'natureza_juridica',
      'opc_simples',
      'opc_mei',
      'has_email',
      'has_telefone',
    ]),
  ],
  ['agg_municipio', new Set(['uf', 'municipio', 'situacao_cadastral', 'matriz_filial', 'porte'])],
  ['agg_cnae', new Set(['cnae', 'uf', 'situacao_cadastral', 'matriz_filial'])],
];

function fromTables(st: Statements, clauses: readonly Clause[], secondary: boolean): number | null {
  const params = clauses.flatMap((c) => (c.flags ? (Object.keys(c.flags) as Clause['param'][]) : [c.param]));
  // A secondary CNAE is not in the tables; a flags clause stands for each yes/no filter it holds.
  const found = secondary ? undefined : TABLES.find(([, covers]) => params.every((p) => covers.has(p)));
  if (found === undefined) return null;
  const table = found[0];
  const where: string[] = [];
  const args: (string | number)[] = [];
  for (const c of clauses) {
    if (c.param === 'cnae') {
      // `_c47` (a division) or `_c4711302` (a subclass): a code range either way.
      const ors = c.terms.map((t) => {
        const digits = t.slice(2);
        const scale = 10 ** (7 - digits.length);
        args.push(Number(digits) * scale, (Number(digits) + 1) * scale);
        return '(cnae >= ? AND cnae < ?)';
      });
      where.push(`(${ors.join(' OR ')})`);
      continue;
    }
    if (c.flags) {
      for (const [k, v] of Object.entries(c.flags)) {
        where.push(`${FLAG_COLUMNS[k as keyof typeof FLAG]} = ?`);
        args.push(v ? 1 : 0);
      }
      continue;
    }
    const [column, value] = COLUMNS[c.param]!;
    where.push(`${column} IN (${c.terms.map(() => '?').join(', ')})`);
    args.push(...c.terms.map(value));
  }
  const sql = `SELECT coalesce(sum(n), 0) FROM ${st.main}.${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  return st
    .get(sql)
    .pluck()
    .get(...args) as number;
}

/**
 * FTS count of `clauses` over every part, stopping once past `stopAfter` or at the deadline: in
 * slices of COUNT_SLICE matches, each one statement that resumes after the last rowid of the one
 * before (through the doclist index, no walk over what was counted).
 */
function ftsCount(st: Statements, clauses: readonly Clause[], stopAfter: number, deadline: Deadline): number {
  const match = matchSql(clauses);
  if (match === null) return 0;
  let n = 0;
  for (const p of st.files.parts) {
    const slice = st
      .get(
        `SELECT count(*), max(r) FROM (SELECT rowid AS r FROM ${p}.est_fts WHERE est_fts MATCH ? AND rowid > ? ORDER BY rowid LIMIT ?)`,
      )
      .raw(true)
      .safeIntegers(true);
    let after = -1n;
    for (;;) {
      if (n > stopAfter || deadline.passed()) return n;
      const want = Math.min(deadline.slice, Number.isFinite(stopAfter) ? stopAfter + 1 - n : deadline.slice);
      const [got, last] = slice.get(match, after, want) as [bigint, bigint | null];
      n += Number(got);
      if (Number(got) < want || last === null) break;
      after = last;
    }
  }
  return n;
}

/**
 * Matches of `clauses` that pass `check`, counted one by one, up to past `stopAfter`; `complete`
 * false when `maxRejected` candidates failed the check first (the count is then a minimum).
 */
function checkedCount(
  st: Statements,
  clauses: readonly Clause[],
  check: (cnpj: string) => boolean,
  stopAfter: number,
  maxRejected: number,
  deadline: Deadline,
): { n: number; complete: boolean } {
  const match = matchSql(clauses)!;
  let n = 0;
  let rejected = 0;
  let seen = 0;
  for (const p of st.files.parts) {
    const stmt = st.get(`SELECT rowid FROM ${p}.est_fts WHERE est_fts MATCH ?`).pluck(true).safeIntegers(true);
    for (const rowid of stmt.iterate(match) as Iterable<bigint>) {
      // A check is a fetch of the row: the clock is looked at every 256 of them.
      if ((++seen & 255) === 0 && deadline.passed()) return { n, complete: false };
      if (check(cnpjOfRowid(rowid))) {
        if (++n > stopAfter) return { n, complete: true };
      } else if (++rejected >= maxRejected) {
        return { n, complete: false };
      }
    }
  }
  return { n, complete: true };
}

export function countPlan(
  st: Statements,
  checkedPlan: Plan,
  f: CompanyFilters,
  bound = DEFAULT_COUNT_BOUND,
  budget: CountBudget = { ms: COUNT_MS, slice: COUNT_SLICE },
): Count {
  if (checkedPlan.empty) return { count: 0, exact: true, source: 'tables' };
  const deadline = new Deadline(budget);
  // A count reads every match: a checked prefix's index form, when it has one, beats checking
  // rows; but `word*` merges all its documents first, so only up to COUNT_STAR_MS.
  const dear = checkedPlan.clauses.some((c) => c.checked && !c.terms.length && (c.switchMs ?? 0) > COUNT_STAR_MS);
  const plan = checkedPrefixes(checkedPlan).length && !dear ? (indexOnly(checkedPlan) ?? checkedPlan) : checkedPlan;
  const stopAfter = f.q !== undefined ? bound : Infinity;
  const secondary = f.cnae_secundario === true && (f.cnae?.length ?? 0) > 0;
  if (!plan.ranges.length && plan.cep === null && f.q === undefined) {
    const n = fromTables(st, plan.clauses, secondary);
    if (n !== null) return { count: n, exact: true, source: 'tables' };
  }
  let n = 0;
  if (!plan.clauses.length && plan.ranges.length === 1 && plan.cep === null) {
    const r = plan.ranges[0];
    const docs = st.get(`SELECT n FROM ${st.main}.term_docs WHERE term = ?`).pluck();
    for (const t of r.whole) n += (docs.get(t) as number | undefined) ?? 0;
    if (r.cut.length)
      n += checkedCount(st, [rangeClause(r, r.cut)], rowCheck(st, [r], null, [])!, Infinity, Infinity, deadline).n;
    return { count: n, exact: !deadline.expired, source: 'tables' };
  }
  // The variants (checks.ts) are disjoint, so their counts add up. Only a checked name prefix
  // (with `q`) may stop on rejections: without `q` a count is exact.
  const maxRejected = checkedPrefixes(plan).length ? COUNT_SCAN_BUDGET : Infinity;
  for (const v of variantsOf(st, plan)) {
    if (n > stopAfter) break;
    if (v.check === null) n += ftsCount(st, v.clauses, stopAfter - n, deadline);
    else {
      const c = checkedCount(st, v.clauses, v.check, stopAfter - n, maxRejected, deadline);
      n += c.n;
      if (!c.complete) return { count: n, exact: false, source: 'index' };
    }
    if (deadline.expired) return { count: Math.min(n, bound), exact: false, source: 'index' };
  }
  return n > stopAfter ? { count: bound, exact: false, source: 'index' } : { count: n, exact: true, source: 'index' };
}
