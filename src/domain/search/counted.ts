// THE order of checks of a counted search, for the API's search routes (server/api/search-route.ts)
// and the web app's Consulta page (server/web/routes/consulta.ts) alike, as docs/errors.md gives
// it: access (token, or the logged-in user's account) → query parameters (400 invalid_parameter)
// → the route's own check (400 missing_filter) → a snapshot served (503 registry_unavailable) →
// its search index (503 search_unavailable) → the engine's answer, computed before counting so
// that a value it refuses (InvalidFilter: 400 naming the parameter) costs no call → one call
// counted through the group commit (429). Here, below both, so that a change to the order cannot
// reach one of them and not the other; each only turns the outcome into its own answer (JSON with
// the quota headers, or an HTML page).
import type { Static } from '@sinclair/typebox';
import type { AccessDenied, AccessIdentity, AccessLayer, QuotaState } from '../metering/access.ts';
import type { ErrorKey } from '../api-errors.ts';
import type { CompanyRegistry } from '../company/lookup.ts';
import type { Company } from '../company/schema.ts';
import { InvalidFilter, searchOf, type SearchIndex } from './index.ts';
import { cursorKey, filterMessage, nextCursor, relevanceOrder, scopeOf } from './paging.ts';
import {
  toCompanyFilters,
  type CompanySearchQuerySchema,
  type SuggestQuerySchema,
  type SuggestResponse,
} from './query-schema.ts';

export type Snapshot = NonNullable<CompanyRegistry['snapshot']>;

export interface CountedSearchDeps {
  access: AccessLayer;
  registry: CompanyRegistry;
}

export interface CountedSearchSteps<V, T> {
  /** Who calls: a token's identity or an account's; its refusal ends it (nothing counted). */
  identify: () => AccessIdentity | AccessDenied | Promise<AccessIdentity | AccessDenied>;
  /** Told as soon as the access is known (the request log's account). */
  identified?: (id: AccessIdentity) => void;
  /** The query parameters, read after the access is known. */
  read: () => { ok: true; value: V } | { ok: false; message: string };
  /** A refusal of the parameters before any work (missing_filter, with its sentence), or null. */
  check?: (v: V) => { key: ErrorKey; message?: string } | null;
  /** The answer, computed before the call is counted; may throw InvalidFilter. */
  answer: (search: SearchIndex, snap: Snapshot, v: V) => T;
}

export type CountedSearch<T> =
  /** The access layer refused, at the start or when counting (429, or a token changed meanwhile). */
  | { kind: 'denied'; denied: AccessDenied }
  /** An error that counts no call (400, 503): the table's code, and a more specific sentence if any. */
  | { kind: 'uncounted'; key: ErrorKey; message?: string }
  /** The answer, its call counted: the quota after it. */
  | { kind: 'answered'; value: T; quota: QuotaState };

export async function countedSearch<V, T>(
  deps: CountedSearchDeps,
  steps: CountedSearchSteps<V, T>,
): Promise<CountedSearch<T>> {
  const id = await steps.identify();
  if (!id.ok) return { kind: 'denied', denied: id };
  steps.identified?.(id);
  const query = steps.read();
  if (!query.ok) return { kind: 'uncounted', key: 'invalid_parameter', message: query.message };
  const refusal = steps.check?.(query.value) ?? null;
  if (refusal !== null) return { kind: 'uncounted', ...refusal };
  const snap = deps.registry.snapshot;
  if (snap === null) return { kind: 'uncounted', key: 'registry_unavailable' };
  const search = searchOf(snap);
  if (search === null) return { kind: 'uncounted', key: 'search_unavailable' };
  let value: T;
  try {
    value = steps.answer(search, snap, query.value);
  } catch (e) {
    if (e instanceof InvalidFilter) return { kind: 'uncounted', key: 'invalid_parameter', message: filterMessage(e) };
    throw e;
  }
  // Submitted in the same event-loop turn as the request's handler: group commit still groups it.
  const counted = await deps.access.charge(id);
  return counted.ok ? { kind: 'answered', value, quota: counted.quota } : { kind: 'denied', denied: counted };
}

/** A company of a search page; grouped, with how many of its establishments were found. */
export type FoundCompany = Company & { estabelecimentos_encontrados?: number };

/**
 * One page of the company search (the API's JSON and CSV, the Consulta page and its CSV): the
 * companies of the page, in the relevance order with `q` (unless order=cnpj), else in CNPJ
 * order, and the next page's cursor. May throw InvalidFilter.
 */
export function companiesPage(
  registry: CompanyRegistry,
  search: SearchIndex,
  snap: Snapshot,
  v: Static<typeof CompanySearchQuerySchema>,
): { data: FoundCompany[]; next: string | null } {
  const scope = scopeOf(v);
  const f = toCompanyFilters(v);
  const after = cursorKey(scope, v.cursor);
  if (!relevanceOrder(v)) {
    if (v.group !== undefined) throw new InvalidFilter('group', 'only with q in the relevance order');
    const page = search.search(f, { limit: v.limit, after });
    return { data: registry.companies(snap, page.cnpjs), next: nextCursor(scope, page.next) };
  }
  const page = search.ranked(f, { limit: v.limit, after, group: v.group === 'company' });
  const found = new Map(page.items.map((i) => [i.cnpj, i.found]));
  const data = registry
    .companies(
      snap,
      page.items.map((i) => i.cnpj),
    )
    .map((c): FoundCompany => {
      const n = found.get(c.cnpj);
      return n === undefined ? c : { ...c, estabelecimentos_encontrados: n };
    });
  return { data, next: nextCursor(scope, page.next) };
}

/** The suggestions for a name being typed (GET …/suggest, the web app's Consulta). May throw InvalidFilter. */
export function suggestions(
  registry: CompanyRegistry,
  search: SearchIndex,
  snap: Snapshot,
  v: Static<typeof SuggestQuerySchema>,
): SuggestResponse['data'] {
  const cnpjs = search.suggest(toCompanyFilters(v), v.limit);
  return registry
    .companies(snap, cnpjs)
    .map(({ cnpj, razao_social, nome_fantasia, uf, municipio, situacao_cadastral }) => ({
      cnpj,
      razao_social,
      nome_fantasia,
      uf,
      municipio,
      situacao_cadastral,
    }));
}
