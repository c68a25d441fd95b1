// What the search routes (company search, count, partner search) share around their work: the
// order of checks and the counting (countedSearch, domain/search/counted.ts, shared with the web
// app's Consulta page), turned into the API's answers: the access layer's refusals with their
// headers, errors that count no call with the quota headers, the answer with the quota headers.
import type { ServerResponse } from 'node:http';
import type { Static, TObject } from '@sinclair/typebox';
import type { ErrorKey } from '../../domain/api-errors.ts';
import { countedSearch, type CountedSearchDeps, type Snapshot } from '../../domain/search/counted.ts';
import type { SearchIndex } from '../../domain/search/index.ts';
export { cursorKey, nextCursor } from '../../domain/search/paging.ts';
import { setLogAccount } from '../http/log.ts';
import { queryReader } from '../http/query-params.ts';
import type { RouteRequest } from '../http/router.ts';
import { rateLimitHeaders, sendDenied, sendUncounted, tokenOf } from './access.ts';

export type SearchDeps = CountedSearchDeps;
export type { Snapshot };
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
  const { access } = deps;
  const readQuery = queryReader(spec.schema);
  return (req: RouteRequest, res: ServerResponse): Promise<void> => {
    const token = tokenOf(req);
    return countedSearch(deps, {
      identify: () => access.identifyForCount(token),
      identified: (id) => setLogAccount(res, id.accountId),
      read: () => readQuery(req.query),
      check: spec.check,
      answer: spec.answer,
    }).then((out) => {
      if (out.kind === 'denied') return sendDenied(res, out.denied);
      if (out.kind === 'uncounted') return sendUncounted(res, access, token, out.key, out.message);
      out.value(res, rateLimitHeaders(out.quota));
    });
  };
}
