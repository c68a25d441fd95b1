// The API's entries of the route table: the lookup (first: nearly every request), a company's
// establishments, the batch lookup, the service status, the health and readiness checks, the OpenAPI document
// and its readable page.
import type { ServerResponse } from 'node:http';
import type { AccessLayer } from '../../domain/metering/access.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import type { StatusBody } from '../../domain/company/schema.ts';
import type { HistoryReader } from '../../domain/history/reader.ts';
import type { Route } from '../http/router.ts';
import { BATCH_ROUTE, batchHandler } from './batch.ts';
import { CHANGES_ROUTE, changesHandler, HISTORY_ROUTE, HISTORY_ROUTE_SLASHED, historyHandler } from './changes.ts';
import { COMPANY_ROUTE, COMPANY_ROUTE_SLASHED, companyHandler } from './company.ts';
import { ESTABLISHMENTS_ROUTE, ESTABLISHMENTS_ROUTE_SLASHED, establishmentsHandler } from './establishments.ts';
import { buildDocsHtml } from '../docs/docs.ts';
import { PARTNERS_ROUTE, partnersHandler } from './partners.ts';
import { COUNT_ROUTE, countHandler, SEARCH_ROUTE, searchHandler, SUGGEST_ROUTE, suggestHandler } from './search.ts';
import { sendJson } from './errors.ts';
import { buildOpenApi } from '../docs/openapi.ts';
import { setSecurityHeaders } from '../web/http.ts';
import type { ApiState } from '../../storage/app/api-state.ts';
import { watchlistRoutes } from './watchlist-routes.ts';
import { READYZ_ROUTE, readyzHandler } from './readiness.ts';
import { registryRoute } from './registry-headers.ts';

export interface ApiDeps {
  access: AccessLayer;
  registry: CompanyRegistry;
  /** history.db, read by the change feed and the company history (one per server). */
  history: HistoryReader;
  now: () => Date;
  /** App state (app.db or the fleet's PostgreSQL): the watchlist; in fleet mode, the shared database's probe. */
  state: ApiState;
  /** Shown in /openapi.json and /docs. */
  baseUrl: string;
  /** app.db answers a trivial query (GET /readyz). */
  appDbReady: () => boolean;
  /** Where a count with `q` stops and says `exact: false` (default DEFAULT_COUNT_BOUND). */
  countBound?: number;
}

/** A document built once, answered with its length (and the headers `secure` sets). */
function fixed(body: string, type: string, secure: (res: ServerResponse) => void) {
  const length = Buffer.byteLength(body);
  return (_req: unknown, res: ServerResponse) => {
    secure(res);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', length);
    res.end(body);
  };
}

export function apiRoutes(deps: ApiDeps): Route[] {
  // Every answer read from the snapshot or the history names the month and release served.
  const registry = (h: Route['handler']) => registryRoute(deps.registry, h);
  const lookup = companyHandler(deps); // names the snapshot itself, in the answer it writes
  const establishments = registry(establishmentsHandler(deps));
  const history = registry(historyHandler(deps));
  const status = (_req: unknown, res: ServerResponse) => {
    const info = deps.registry.info;
    const body: StatusBody = info
      ? {
          status: 'ok',
          registry: {
            id: info.id,
            month: info.month,
            imported_at: info.importedAt,
            schema_version: info.schemaVersion,
            synthetic: info.synthetic,
            partial: info.partial,
            counts: info.counts,
          },
        }
      : { status: 'registry_unavailable', registry: null };
    sendJson(res, 200, body, { 'Cache-Control': 'no-store' });
  };
  return [
    { method: 'GET', path: COMPANY_ROUTE, handler: lookup },
    { method: 'GET', path: COMPANY_ROUTE_SLASHED, handler: lookup },
    { method: 'GET', path: ESTABLISHMENTS_ROUTE, handler: establishments },
    { method: 'GET', path: ESTABLISHMENTS_ROUTE_SLASHED, handler: establishments },
    { method: 'GET', path: SEARCH_ROUTE, handler: registry(searchHandler(deps)) },
    { method: 'GET', path: COUNT_ROUTE, handler: registry(countHandler(deps)) },
    { method: 'GET', path: SUGGEST_ROUTE, handler: registry(suggestHandler(deps)) },
    { method: 'GET', path: PARTNERS_ROUTE, handler: registry(partnersHandler(deps)) },
    { method: 'POST', path: BATCH_ROUTE, handler: registry(batchHandler(deps)) },
    { method: 'GET', path: CHANGES_ROUTE, handler: registry(changesHandler(deps)) },
    { method: 'GET', path: HISTORY_ROUTE, handler: history },
    { method: 'GET', path: HISTORY_ROUTE_SLASHED, handler: history },
    ...watchlistRoutes({ access: deps.access, now: deps.now, state: deps.state }),
    {
      method: 'GET',
      path: '/healthz',
      handler: (_req, res) => sendJson(res, 200, { status: 'ok' }, { 'Cache-Control': 'no-store' }),
    },
    {
      method: 'GET',
      path: READYZ_ROUTE,
      handler: readyzHandler({
        registry: deps.registry,
        appDb: deps.appDbReady,
        fleet: deps.state.fleet,
      }),
    },
    { method: 'GET', path: '/api/v1/status', handler: registry(status) },
    {
      method: 'GET',
      path: '/openapi.json',
      handler: fixed(JSON.stringify(buildOpenApi(deps.baseUrl)), 'application/json; charset=utf-8', (res) =>
        res.setHeader('X-Content-Type-Options', 'nosniff'),
      ),
    },
    // /docs is a page in the web app's layout: the same rules (CSP, no framing).
    {
      method: 'GET',
      path: '/docs',
      handler: fixed(buildDocsHtml(deps.baseUrl), 'text/html; charset=utf-8', setSecurityHeaders),
    },
  ];
}
