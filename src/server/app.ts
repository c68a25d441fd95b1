// The application: one route table (the API's entries, the web app's, a test's extra ones) served
// by one polka app (http/router.ts), and the rules every answer follows: JSON errors, 404/405, a
// 500 without a stack trace from the one error handler, one log line per request, the bounds on
// requests in flight.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AccessLayer } from '../domain/metering/access.ts';
import { DatabaseUnavailable } from '../storage/app/pg-errors.ts';
import type { CompanyRegistry } from '../domain/company/lookup.ts';
import type { DestinationPolicy } from '../domain/webhooks/destination.ts';
import type { HistoryReader } from '../domain/history/reader.ts';
import type { ApiState } from '../storage/app/api-state.ts';
import { sendError } from './api/errors.ts';
import { apiRoutes } from './api/routes.ts';
import { compatNoMatch, compatRoutes } from './api/compat.ts';
import type { CompatOpen } from './api/compat-open.ts';
import { HSTS, isHttps } from './http/forwarded.ts';
import { IN_FLIGHT_LIMITS, InFlight, type InFlightLimits } from './http/in-flight.ts';
import { logRequest, redactTokens, redactUrl, type LogFn } from './http/log.ts';
import type { ServerMetrics } from './metrics/server-metrics.ts';
import { routeTableApp, type Route, type RouterHooks } from './http/router.ts';
import { internalErrorPage } from './web/guard.ts';
import { webApp } from './web/index.ts';

export interface AppDeps {
  /** App state on either backend (app.db or the fleet's PostgreSQL), as the API serves from it. */
  state: ApiState;
  /** The metering over `state`: who may call, and each call counted. */
  access: AccessLayer;
  registry: CompanyRegistry;
  /** The server's one history.db reader (change feed, histories; watchlists and webhooks reuse it). */
  history: HistoryReader;
  now: () => Date;
  /** Shown in /openapi.json, /docs and the web app: --public-url, else the listening address. */
  baseUrl: string;
  /** app.db answers a trivial query (GET /readyz). */
  appDbReady: () => boolean;
  /** Client address and https come from X-Forwarded-* (--trust-proxy). */
  trustProxy?: boolean;
  log: LogFn;
  /** Bounds on the requests taken on at once (default IN_FLIGHT_LIMITS). */
  inFlight?: InFlightLimits;
  /** Extra entries at the end of the route table (tests use it to mount failing routes). */
  extraRoutes?: readonly Route[];
  /** Where a count with `q` stops (default DEFAULT_COUNT_BOUND); tests set a small one. */
  countBound?: number;
  /** Webhook destinations the operator allows (registration in the web app). */
  webhooks?: DestinationPolicy;
  /** Request counts and durations by route pattern (serve --metrics-port); none: nothing measured. */
  metrics?: ServerMetrics;
  /** The compat routes' tokenless switch (serve --compat-open-account); off when absent. */
  compatOpen?: CompatOpen;
}

/** The route, its handler first telling the metrics which pattern answers (the label, never the URL). */
function measured(route: Route, metrics: ServerMetrics): Route {
  const { handler, path } = route;
  return {
    ...route,
    handler: (req, res) => {
      metrics.routed(res, path);
      return handler(req, res);
    },
  };
}

export interface BuiltApp {
  /** The route table the app answers. */
  routes: readonly Route[];
  /** The http server's 'request' listener. */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export function buildApp(deps: AppDeps): BuiltApp {
  const { log } = deps;
  const web = webApp({
    store: deps.state.store,
    now: deps.now,
    baseUrl: deps.baseUrl,
    trustProxy: deps.trustProxy,
    access: deps.access,
    registry: deps.registry,
    webhooks: deps.webhooks,
    history: deps.history,
  });

  const hooks: RouterHooks = {
    // The one error handler: whatever a handler throws or rejects with.
    onError(err, req, res, route) {
      const e = err instanceof Error ? err : new Error(String(err));
      // Fleet mode, the shared PostgreSQL unreachable: 503 with Retry-After, one line (no stack:
      // an outage fails every request, and the pool recovers by itself).
      if (e instanceof DatabaseUnavailable && !res.headersSent && !(route ? route.html : web.wantsPage(req))) {
        log(`error: ${req.method} ${redactUrl(req.url ?? '').split('?')[0]}: ${e.message}`);
        for (const h of res.getHeaderNames()) res.removeHeader(h);
        return sendError(res, 'database_unavailable');
      }
      // A client that hung up while its body was read: no fault of ours and nobody to answer
      // (the request's log line says aborted); a stack trace per hang-up would flood the log.
      if (req.destroyed && (e as NodeJS.ErrnoException).code === 'ECONNRESET') return void res.destroy();
      // The stack goes to the server log only; the client gets the fixed sentence.
      log(redactTokens(`error: ${req.method} ${redactUrl(req.url ?? '').split('?')[0]}: ${e.stack ?? e.message}`));
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // A page of the web app (or a browser's request no route had) fails with the 500 page.
      if (route ? route.html : web.wantsPage(req)) return internalErrorPage(res);
      for (const h of res.getHeaderNames()) res.removeHeader(h);
      sendError(res, 'internal_error');
    },
    noMatch(req, res, allow) {
      if (compatNoMatch(req, res, allow)) return;
      if (allow.length > 0) return sendError(res, 'method_not_allowed', { Allow: allow.join(', ') });
      if (web.wantsPage(req)) return web.notFound(req, res);
      sendError(res, 'route_not_found');
    },
  };
  // The lookup first: polka tries a method's routes in order, and nearly every request is one.
  const compat = compatRoutes({
    access: deps.access,
    registry: deps.registry,
    now: deps.now,
    trustProxy: deps.trustProxy,
    open: deps.compatOpen,
  });
  const table = [...apiRoutes(deps), ...compat, ...web.routes, ...(deps.extraRoutes ?? [])];
  const { metrics } = deps;
  const app = routeTableApp(metrics ? table.map((r) => measured(r, metrics)) : table, hooks);
  const done = metrics && ((res: ServerResponse, ms: number) => metrics.done(res, ms));
  const inFlight = new InFlight(deps.inFlight ?? IN_FLIGHT_LIMITS, app.handler, (_req, res) =>
    sendError(res, 'server_busy'),
  );

  return {
    routes: app.routes,
    handle(req, res) {
      logRequest(req, res, log, deps.trustProxy, done);
      // The server speaks plain HTTP: only a trusted proxy can make a request https.
      if (deps.trustProxy && isHttps(req, deps)) res.setHeader('Strict-Transport-Security', HSTS);
      inFlight.admit(req, res);
    },
  };
}
