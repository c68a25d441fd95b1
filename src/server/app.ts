// The polka application: API routes, the web app, and the rules every answer follows
// (JSON errors, 404/405, 500 without a stack trace, one log line per request).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import polka, { type Middleware, type Next, type Polka, type Request } from 'polka';
import type { Kysely } from 'kysely';
import type { ApiAccess } from '../domain/accounts/api-access.ts';
import type { StatusBody } from '../domain/company/schema.ts';
import type { AppDatabase } from '../storage/app-schema.ts';
import type { Sqlite } from '../storage/sqlite.ts';
import type { CompanyRegistry } from '../domain/company/lookup.ts';
import { HSTS, isHttps } from './http/forwarded.ts';
import { setSecurityHeaders } from './web/http.ts';
import { mountWeb } from './web/index.ts';
import { COMPANY_ROUTE, COMPANY_ROUTE_SLASHED, companyHandler } from './api/company.ts';
import { buildDocsHtml } from './api/docs.ts';
import { sendError, sendJson } from './api/errors.ts';
import { IN_FLIGHT_LIMITS, InFlight, type InFlightLimits } from './http/in-flight.ts';
import { logRequest, redactTokens, type LogFn } from './http/log.ts';
import { buildOpenApi } from './api/openapi.ts';

export interface AppDeps {
  sqlite: Sqlite;
  db: Kysely<AppDatabase>;
  access: ApiAccess;
  reader: CompanyRegistry;
  now: () => Date;
  /** Shown in /openapi.json, /docs and the web app: --public-url, else the listening address. */
  baseUrl: string;
  /** Client address and https come from X-Forwarded-* (--trust-proxy). */
  trustProxy?: boolean;
  log: LogFn;
  /** Bounds on the requests taken on at once (default IN_FLIGHT_LIMITS). */
  inFlight?: InFlightLimits;
  /** Extra routes (tests use it to mount a failing route). */
  extend?: (app: Polka) => void;
}

type Handler = (req: Request, res: ServerResponse, next: Next) => unknown;

/**
 * COMPANY_ROUTE as polka matches it (`:cnpj` is one non-empty path segment), with its query.
 * Lookups are nearly every request, and polka's URL parsing and route search cost them ~8 µs
 * each: this one route is matched here first. Any other shape of URL goes through polka.
 */
const LOOKUP_URL = new RegExp(
  `^${COMPANY_ROUTE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(':cnpj', '([^/?]+)')}(?:\\?(.*))?$`,
  's',
);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * polka 0.5 lets a synchronous throw escape to the http server (a crash) and ignores rejected
 * promises (another crash, or a request left hanging). Every handler registered on the app,
 * ours and the web app's, is wrapped so both end in onError, i.e. a logged 500.
 */
function guard(fn: Handler, onError: NonNullable<polka.Options['onError']>): Handler {
  return (req, res, next) => {
    // polka calls a lone route handler without `next` (its fast path when no middleware exists).
    const fail = (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      if (typeof next === 'function') next(e);
      else onError(e, req, res, () => {});
    };
    try {
      const r = fn(req, res, next) as { then?: unknown } | undefined;
      if (r && typeof r.then === 'function') (r as Promise<unknown>).then(undefined, fail);
    } catch (err) {
      fail(err);
    }
  };
}

function guardedPolka(opts: polka.Options & Required<Pick<polka.Options, 'onError'>>): Polka {
  const app = polka(opts);
  const add = app.add.bind(app);
  const wrap = (fns: unknown[]) => fns.map((f) => (typeof f === 'function' && !(f as { handler?: unknown }).handler ? guard(f as Handler, opts.onError) : f));
  (app as { add: unknown }).add = (method: string, pattern: string | RegExp, ...fns: unknown[]) => {
    const handlers = wrap(fns) as Middleware[];
    // HEAD wherever GET: the same handler (node leaves the body out, see sameHeadersAsGet).
    if (method === 'GET') add('HEAD', pattern, ...handlers);
    return add(method as 'GET', pattern, ...handlers);
  };
  // trouter bound get/post/... to the original add in its constructor: rebind them.
  for (const m of ['all', 'get', 'head', 'patch', 'options', 'connect', 'delete', 'trace', 'post', 'put'] as const) {
    const method = m === 'all' ? '*' : m.toUpperCase();
    (app as unknown as Record<string, unknown>)[m] = (pattern: string | RegExp, ...fns: unknown[]) => app.add(method as 'GET', pattern, ...(fns as Middleware[]));
  }
  const use = app.use.bind(app) as (...args: unknown[]) => Polka;
  (app as { use: unknown }).use = (...args: unknown[]) => use(...wrap(args));
  return app;
}

/**
 * Node drops the body of a HEAD answer, and with it the Content-Length it would have set from
 * the body given to end(): set it here, so a HEAD answer's headers are those of the GET.
 */
function sameHeadersAsGet(res: ServerResponse): void {
  const end = res.end;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (!this.headersSent && !this.hasHeader('content-length') && this.statusCode !== 204 && this.statusCode !== 304) {
      const length =
        typeof chunk === 'string'
          ? Buffer.byteLength(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8')
          : chunk instanceof Uint8Array
            ? chunk.byteLength
            : 0;
      this.setHeader('Content-Length', length);
    }
    return end.call(this, chunk as string, ...(rest as [BufferEncoding, () => void]));
  } as ServerResponse['end'];
}

export interface BuiltApp {
  app: Polka;
  /** The http server's 'request' listener. */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

export function buildApp(deps: AppDeps): BuiltApp {
  const { log } = deps;

  const onError = (err: unknown, req: IncomingMessage, res: ServerResponse) => {
    const e = err instanceof Error ? err : new Error(String(err));
    // The stack goes to the server log only; the client gets the fixed sentence.
    log(redactTokens(`error: ${req.method} ${(req.url ?? '').split('?')[0]}: ${e.stack ?? e.message}`));
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const h of res.getHeaderNames()) res.removeHeader(h);
    sendError(res, 'internal_error');
  };

  const onNoMatch = (req: Request, res: ServerResponse) => {
    const path = req.path ?? (req.url ?? '/').split('?')[0];
    const allowed = METHODS.filter((m) => m !== req.method && app.find(m, path));
    if (allowed.length > 0) return sendError(res, 'method_not_allowed', { Allow: allowed.join(', ') });
    if (web.notFound(req, res)) return; // a browser asking for a page: the web app's 404 page
    sendError(res, 'route_not_found');
  };

  const app = guardedPolka({ onError, onNoMatch });

  const lookupCompany = companyHandler({
    access: deps.access,
    reader: deps.reader,
    fail: (err, req, res) => onError(err, req, res),
  });
  for (const route of [COMPANY_ROUTE, COMPANY_ROUTE_SLASHED]) app.get(route, lookupCompany as unknown as Middleware);

  const health: Handler = (_req, res) => sendJson(res, 200, { status: 'ok' }, { 'Cache-Control': 'no-store' });
  app.get('/healthz', health as unknown as Middleware);

  const status: Handler = (_req, res) => {
    const info = deps.reader.info;
    const body: StatusBody = info
      ? {
          status: 'ok',
          registry: { id: info.id, month: info.month, imported_at: info.importedAt, schema_version: info.schemaVersion, synthetic: info.synthetic, partial: info.partial, counts: info.counts },
        }
      : { status: 'registry_unavailable', registry: null };
    sendJson(res, 200, body, { 'Cache-Control': 'no-store' });
  };
  app.get('/api/v1/status', status as unknown as Middleware);

  const openapi = JSON.stringify(buildOpenApi(deps.baseUrl));
  app.get('/openapi.json', ((_req: Request, res: ServerResponse) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Length', Buffer.byteLength(openapi));
    res.end(openapi);
  }) as unknown as Middleware);

  const docs = buildDocsHtml(deps.baseUrl);
  app.get('/docs', ((_req: Request, res: ServerResponse) => {
    setSecurityHeaders(res); // a page in the web app's layout: the same rules (CSP, no framing)
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(docs));
    res.end(docs);
  }) as unknown as Middleware);

  const web = mountWeb(app, { sqlite: deps.sqlite, db: deps.db, now: deps.now, baseUrl: deps.baseUrl, trustProxy: deps.trustProxy });
  deps.extend?.(app);

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method === 'HEAD') sameHeadersAsGet(res);
    try {
      const lookup = req.method === 'GET' ? LOOKUP_URL.exec(req.url ?? '') : null;
      if (lookup !== null) {
        // What polka's handler would have set for this route (the same parser for the query).
        const r = req as Request;
        r.params = { cnpj: lookup[1] };
        r.query = parseQuery(lookup[2] ?? '') as Request['query'];
        return lookupCompany(r, res);
      }
      app.handler(req as Request, res);
    } catch (err) {
      // Not from a handler (those are guarded): the router itself, e.g. on a malformed URL.
      onError(err, req, res);
    }
  };
  const inFlight = new InFlight(deps.inFlight ?? IN_FLIGHT_LIMITS, route, (_req, res) => sendError(res, 'server_busy'));

  return {
    app,
    handle(req, res) {
      logRequest(req, res, log, deps.trustProxy);
      // The server speaks plain HTTP: only a trusted proxy can make a request https.
      if (deps.trustProxy && isHttps(req, deps)) res.setHeader('Strict-Transport-Security', HSTS);
      inFlight.admit(req, res);
    },
  };
}
