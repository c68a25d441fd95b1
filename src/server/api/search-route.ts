// What the search routes (company search, count, partner search) share around their work, in
// the order docs/errors.md gives: token → query parameters (400 invalid_parameter) → the route's
// own check (400 missing_filter) → a snapshot served (503 registry_unavailable) → its search
// index (503 search_unavailable) → the engine's answer, computed before counting so that a value
// it refuses (InvalidFilter: 400 naming the parameter) costs no call → one call counted through
// the group commit (429) → the answer sent with the quota headers.
import type { ServerResponse } from 'node:http';
import type { Static, TObject } from '@sinclair/typebox';
import type { ApiAccess } from '../../domain/accounts/api-access.ts';
import type { ErrorKey } from '../../domain/api-errors.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { InvalidFilter, searchOf, type SearchIndex } from '../../domain/search/index.ts';
import { filterMessage } from '../../domain/search/paging.ts';
export { cursorKey, nextCursor } from '../../domain/search/paging.ts';
import { setLogAccount } from '../http/log.ts';
import { queryReader } from '../http/query-params.ts';
import type { RouteRequest } from '../http/router.ts';
import { rateLimitHeaders, sendDenied, sendUncounted, tokenOf } from './access.ts';

export interface SearchDeps {
  access: ApiAccess;
  reader: CompanyRegistry;
}

export type Snapshot = NonNullable<CompanyRegistry['snapshot']>;
/** The answer, ready to go once the call is counted. */
export type Send = (res: ServerResponse, headers: Record<string, number>) => void;

export interface SearchRouteSpec<S extends TObject> {
  schema: S;
  /** A refusal of the parameters before any work (missing_filter, with its sentence), or null. */
  check?: (v: Static<S>) => { key: ErrorKey; message?: string } | null;
  /** The answer; may throw InvalidFilter. */
  answer: (search: SearchIndex, snap: Snapshot, v: Static<S>) => Send;
}

export function searchRoute<S extends TObject>(deps: SearchDeps, spec: SearchRouteSpec<S>) {
  const { access, reader } = deps;
  const readQuery = queryReader(spec.schema);
  return (req: RouteRequest, res: ServerResponse): Promise<void> | void => {
    const token = tokenOf(req);
    const id = access.identifyForCount(token);
    if (!id.ok) return sendDenied(res, id);
    setLogAccount(res, id.accountId);
    const query = readQuery(req.query);
    if (!query.ok) return sendUncounted(res, access, token, 'invalid_parameter', query.message);
    const refusal = spec.check?.(query.value) ?? null;
    if (refusal !== null) return sendUncounted(res, access, token, refusal.key, refusal.message);
    const snap = reader.snapshot;
    if (snap === null) return sendUncounted(res, access, token, 'registry_unavailable');
    const search = searchOf(snap);
    if (search === null) return sendUncounted(res, access, token, 'search_unavailable');
    let send: Send;
    try {
      send = spec.answer(search, snap, query.value);
    } catch (e) {
      if (e instanceof InvalidFilter) return sendUncounted(res, access, token, 'invalid_parameter', filterMessage(e));
      throw e;
    }
    return access.consumeGrouped(id).then((counted) => {
      if (!counted.ok) return sendDenied(res, counted);
      send(res, rateLimitHeaders(counted.quota));
    });
  };
}
