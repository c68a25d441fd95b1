// The search engine of one snapshot (docs/search.md): company search, count and partner search
// over the snapshot's search files. Synchronous and side-effect free, so an endpoint is a thin
// call: parse the query string into CompanyFilters / PartnerFilters, call, map InvalidFilter to
// 400 naming its parameter, and look the returned CNPJs up (domain/company/lookup.ts).
//
//   const search = searchOf(snapshot);            // null → 503 search_unavailable
//   const page = search.search(filters, { limit: 20, after: cursorCnpj });
//   const { count, exact } = search.count(filters);
//   const partners = search.partners({ nome: 'maria silva' }, { limit: 20 });
import type { OpenSnapshot } from '../registry/reader.ts';
import type { ColumnSelection } from '../registry/rows.ts';
import { COUNT_MS, COUNT_SLICE, countPlan, DEFAULT_COUNT_BOUND, type Count, type CountBudget } from './count.ts';
import { hasFilter, InvalidFilter, type CompanyFilters, type PartnerFilters } from './filters.ts';
import { SnapshotIndexTables, Statements } from './index-tables.ts';
import { compilePlan } from './match.ts';
import type { IndexTables, Plan } from './plan.ts';
import { PLAN_DEFAULTS, type PlanOptions } from './prefix.ts';
import { searchPage, type Page } from './page.ts';
import { partnerClauses, rankedPartners, searchPartners, type PartnerPage } from './partners.ts';
import { spellings, WordCounts } from './forgiving.ts';
import { coreWords } from './name-key.ts';
import { normalizeText } from './normalize.ts';
import { BadCursor, exactTier, Ranker, type NameQuery, type RankedPage } from './relevance.ts';

export type { CompanyFilters, PartnerFilters, Situacao } from './filters.ts';
export { InvalidFilter, hasFilter, SITUACOES, parseIsoDate } from './filters.ts';
export { queryWords } from './prefix.ts';
export { partnerKeyTerm } from './partner-key.ts';
export type { Page } from './page.ts';
export type { Count } from './count.ts';
export type { RankedItem, RankedPage } from './relevance.ts';
export type { PartnerHit, PartnerPage, PartnerCompany } from './partners.ts';

export const MAX_LIMIT = 100;
/** Suggestions per call at most. */
export const MAX_SUGGEST = 20;
/** Companies of the relevance order a suggestion reorders, and the time it may take to find them. */
export const SUGGEST_POOL = 40;
export const SUGGEST_MS = 60;

/** What the engine needs of a snapshot (OpenSnapshot, of any column selection). */
export type SearchableSnapshot = Pick<OpenSnapshot<ColumnSelection>, 'search' | 'codeTables'>;
const CNPJ_BODY = /^[0-9A-Z]{12}/;

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new InvalidFilter('limit', `expected 1 to ${MAX_LIMIT}`);
  return limit;
}

/** The plan of filters that select something (`cnae_secundario` alone, say, does not). */
function planOf(f: CompanyFilters, ix: IndexTables, opts: PlanOptions): Plan {
  const plan = hasFilter(f) ? compilePlan(f, ix, opts) : null;
  if (plan === null || (!plan.clauses.length && !plan.ranges.length))
    throw new InvalidFilter('q', 'at least one filter is needed');
  return plan;
}

export class SearchIndex {
  private readonly st: Statements;
  private readonly tables: SnapshotIndexTables;

  constructor(
    private readonly snapshot: SearchableSnapshot,
    private readonly plans: PlanOptions = PLAN_DEFAULTS,
  ) {
    this.st = new Statements(snapshot.search!);
    this.tables = new SnapshotIndexTables(this.st);
  }

  /** The query plan of `filters` (what the index is asked, what is checked on the rows): tests, benchmarks. */
  plan(f: CompanyFilters): Plan {
    return planOf(f, this.tables, this.plans);
  }

  /**
   * Establishments matching every filter, in CNPJ order, after the CNPJ `after` (the previous
   * page's `next`); a page that has examined candidates for `ms` (PAGE_MS) ends shorter, with its cursor.
   */
  search(f: CompanyFilters, page: { limit: number; after?: string | null; ms?: number }): Page {
    const after = page.after ?? null;
    if (after !== null && !CNPJ_BODY.test(after)) throw new InvalidFilter('cursor', 'not a cursor of this search');
    return searchPage(this.st, planOf(f, this.tables, this.plans), checkLimit(page.limit), after, page.ms);
  }

  /**
   * How many establishments match: exact, but with `q` `exact: false` past `bound`, and whatever
   * the filters `exact: false` (the count so far) once it has walked matches for `ms` (COUNT_MS).
   */
  count(f: CompanyFilters, opts: { bound?: number } & Partial<CountBudget> = {}): Count {
    const budget = { ms: opts.ms ?? COUNT_MS, slice: opts.slice ?? COUNT_SLICE };
    return countPlan(this.st, planOf(f, this.tables, this.plans), f, opts.bound ?? DEFAULT_COUNT_BOUND, budget);
  }

  /**
   * With `q`, in the relevance order (relevance.ts): exact names first, then every word, then
   * the forgiving spellings; `group`: one item per CNPJ root. `after` is the previous page's `next`.
   */
  ranked(f: CompanyFilters, page: { limit: number; after?: string | null; ms?: number; group?: boolean }): RankedPage {
    if (f.q === undefined) throw new InvalidFilter('q', 'the relevance order needs q');
    const ranker = new Ranker(this.st, this.nameQuery(f), page.group === true);
    try {
      return ranker.page(checkLimit(page.limit), page.after ?? null, page.ms);
    } catch (e) {
      if (e instanceof BadCursor) throw new InvalidFilter('cursor', 'not a cursor of this search');
      throw e;
    }
  }

  /**
   * Typeahead (issue #46): up to `limit` companies, one per root, best first, for a name being
   * typed. The relevance order's first SUGGEST_POOL companies, within SUGGEST_MS, reordered
   * within each tier by what matters to someone typing: a name that starts with the text typed,
   * active, more establishments (the words tier is in CNPJ order, which says nothing).
   */
  suggest(f: CompanyFilters, limit: number): string[] {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SUGGEST)
      throw new InvalidFilter('limit', `expected 1 to ${MAX_SUGGEST}`);
    const q = this.nameQuery(f);
    const ranker = new Ranker(this.st, q, true, false, limit);
    const pool = ranker.page(SUGGEST_POOL, null, SUGGEST_MS).items;
    // The page's own reads: a root's size was already read when its item was made.
    const { reads } = ranker;
    const ranked = pool.map((item, at) => {
      const r = reads.row(item.cnpj);
      const starts = [r?.[0], r?.[1]].some((n) => typeof n === 'string' && normalizeText(n).startsWith(q.text));
      // Exact tiers are already in their order; the words tiers get the typeahead signals.
      const key = exactTier(item.tier)
        ? [item.tier, at, 0, 0, 0]
        : [item.tier, starts ? 0 : 1, r?.[2] === 2 ? 0 : 1, -reads.size(item.cnpj.slice(0, 8)), at];
      return { cnpj: item.cnpj, key };
    });
    ranked.sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
      return 0;
    });
    return ranked.slice(0, limit).map((r) => r.cnpj);
  }

  /** The spellings of `q` and their plans, the other filters' plan (relevance.ts NameQuery). */
  private nameQuery(f: CompanyFilters): NameQuery {
    const typed = planOf(f, this.tables, this.plans);
    const words = coreWords(f.q!);
    const rest: CompanyFilters = { ...f, q: undefined };
    const byFilters = hasFilter(rest) ? compilePlan(rest, this.tables, this.plans) : null;
    const filters = byFilters !== null && (byFilters.clauses.length || byFilters.ranges.length) ? byFilters : null;
    // The forgiving spellings are looked for only when a page reaches them (relevance.ts): most
    // first pages are full from the typed words. Known words are corrected too only when the
    // query as typed finds nothing.
    let forgiving: { spellings: string[][]; plans: Plan[] } | null = null;
    const more = () => {
      if (forgiving === null) {
        const none =
          q.typedFinds !== undefined ? !q.typedFinds : typed.empty || !searchPage(this.st, typed, 1, null).cnpjs.length;
        const other = spellings(words, new WordCounts(this.st), none);
        forgiving = {
          spellings: [words, ...other],
          plans: [typed, ...other.map((w) => compilePlan({ ...f, q: w.join(' ') }, this.tables, this.plans))],
        };
      }
      return forgiving;
    };
    const q: NameQuery = {
      text: normalizeText(f.q!),
      words,
      typed,
      get spellings() {
        return more().spellings;
      },
      get plans() {
        return more().plans;
      },
      filters,
      hasKeys: this.hasKey('name_keys'),
    };
    return q;
  }

  private readonly keys = new Map<string, boolean>();
  /** Whether the index holds a name key table: indexes built before it (issue #46) have no such meta key, so no exact tier. */
  private hasKey(table: 'name_keys' | 'partner_keys'): boolean {
    let has = this.keys.get(table);
    if (has === undefined) {
      has = this.st.get(`SELECT 1 FROM ${this.st.main}.meta WHERE key = ?`).pluck().get(table) !== undefined;
      this.keys.set(table, has);
    }
    return has;
  }

  /**
   * Partner rows by name words and/or cnpj_cpf. With `nome`, in the relevance order
   * (partners.ts rankedPartners: exact names first, then every word) unless `order` is `table`;
   * else, and for an index built before partner_keys, in the partners table's order. `after` is
   * the previous page's `next`; a page that has examined candidates for `ms` (PAGE_MS) ends
   * shorter, with its cursor.
   */
  partners(
    f: PartnerFilters,
    page: { limit: number; after?: string | null; ms?: number; order?: 'relevance' | 'table' },
  ): PartnerPage {
    const clauses = partnerClauses(f, this.tables, this.plans);
    const limit = checkLimit(page.limit);
    const after = page.after ?? null;
    const bad = () => new InvalidFilter('cursor', 'not a cursor of this search');
    // A plain rowid is a cursor of the table's order (also one given before the relevance order
    // existed): the walk goes on in the order it began in.
    const table = page.order === 'table' || (after !== null && /^\d{1,15}$/.test(after));
    if (f.nome !== undefined && !table && this.hasKey('partner_keys')) {
      const m = after === null ? null : /^([01]):(\d{1,15})?$/.exec(after);
      if (after !== null && m === null) throw bad();
      const cursor =
        m === null
          ? { tier: 0 as const, after: null }
          : { tier: Number(m[1]) as 0 | 1, after: m[2] === undefined ? null : Number(m[2]) };
      const keyClauses =
        f.cnpj_cpf === undefined ? [] : partnerClauses({ cnpj_cpf: f.cnpj_cpf }, this.tables, this.plans);
      return rankedPartners(this.st, f.nome, clauses, keyClauses, this.snapshot.codeTables, limit, cursor, page.ms);
    }
    if (after !== null && !/^\d{1,15}$/.test(after)) throw bad();
    return searchPartners(
      this.st,
      clauses,
      this.snapshot.codeTables,
      limit,
      after === null ? null : Number(after),
      page.ms,
    );
  }
}

const engines = new WeakMap<object, SearchIndex>();

/**
 * The search engine of a snapshot (CompanyRegistry.snapshot), made once per snapshot; null when
 * there is no snapshot or it has no usable search index (503 search_unavailable).
 */
export function searchOf(snapshot: SearchableSnapshot | null): SearchIndex | null {
  if (snapshot === null || snapshot.search === null) return null;
  let e = engines.get(snapshot);
  if (e === undefined) {
    e = new SearchIndex(snapshot);
    engines.set(snapshot, e);
  }
  return e;
}
