// The route table served by one polka app: a list of (method, path pattern, handler) for the API,
// the docs and the web app; a handler's failure, thrown or rejected, reaches polka's onError; a
// path known for other methods answers 405 with Allow; HEAD is answered wherever GET is.
//
// polka 0.5.2 (the `latest` dist-tag), not 1.0.0-next.28:
// - the API's answers are those of the golden files (test/fixtures/api-golden), made when the
//   server was polka 0.5: its matching (trouter 2: case-sensitive, one leading and one trailing
//   slash do not count, a `:name` matches any segment, even an empty one), params left encoded
//   (our handlers decode them once) and node:querystring for the query. next.28's trouter 4
//   matches case-insensitively (/API/v1/… would answer 200), needs a non-empty segment for a
//   `:name` (…//company would be 404, not 400) and decodes params (our decoding would make it
//   twice: %252F would become a slash);
// - per request, 0.5 tries the routes of the method in order until one matches (the lookup is
//   the first) and calls a lone handler directly; next.28 tries every route on each request and
//   runs the handler through an async function (a promise and two closures more per request);
// - 0.5.2 has not changed since 2019, next.28 is a prerelease; @types/polka describes 0.5.
// What 0.5 leaves to us: a handler's throw escapes to the http server and a rejection is ignored
// (guard() sends both to onError), and HEAD is not implied by GET (each GET route is registered
// for HEAD too).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import polka from 'polka';
import type Trouter from 'trouter';

/** The methods a route may declare; HEAD comes with GET. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** What Allow may list, in the order it lists them. */
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The request as polka hands it to a route: node's own, with these two set. */
export interface RouteRequest extends IncomingMessage {
  /** The `:name` segments of the pattern, as sent (percent-encoding left in). */
  params: Record<string, string>;
  /** node:querystring's parse of what follows the first `?`. */
  query: ParsedUrlQuery;
}

/** May answer at once or later; a throw or a rejection goes to the app's onError. */
/** A route's handler: it answers before it returns, or by the promise it returns. */
export type RouteHandler = (req: RouteRequest, res: ServerResponse) => void | Promise<void>;

export interface Route {
  method: Method;
  /** `/a/b`, or with `:name` segments: `/api/v1/brazilian_companies/:cnpj/company`. */
  path: string;
  handler: RouteHandler;
  /** A page of the web app: its failure is the HTML error page, not the JSON error. */
  html?: boolean;
}

export interface RouterHooks {
  /**
   * A handler failed (`route`), or the no-match answer did (`route` undefined). Called once per
   * failure, with the response possibly half-written.
   */
  onError(err: unknown, req: RouteRequest, res: ServerResponse, route: Route | undefined): void;
  /** No route for this method and path; `allow` lists the methods that have one (empty: none). */
  noMatch(req: RouteRequest, res: ServerResponse, allow: readonly string[]): void | Promise<void>;
}

export interface RouteTableApp {
  /** The table, as given (HEAD not listed: it comes with GET). */
  readonly routes: readonly Route[];
  /** polka's request handler: the in-flight admission calls it for each request it starts. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
}

type OnError = (err: unknown, req: IncomingMessage, res: ServerResponse) => void;
/** A handler as polka calls it (a lone route handler gets no `next`). */
type PolkaHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The one wrapper: a handler's synchronous throw or rejected promise goes to onError (polka 0.5
 * lets the first escape to the http server and ignores the second).
 */
function guard(handler: RouteHandler, onError: OnError): PolkaHandler {
  return (req, res) => {
    try {
      // polka has set params and query (see RouteRequest).
      const answer = handler(req as RouteRequest, res);
      if (answer) onRejection(answer, onError, req, res);
    } catch (err) {
      onError(err, req, res);
    }
  };
}

// Apart from guard: a closure there would put the request in a context allocated per request.
function onRejection(answer: Promise<void>, onError: OnError, req: IncomingMessage, res: ServerResponse): void {
  answer.then(undefined, (err: unknown) => onError(err, req, res));
}

/** HEAD wherever GET: the GET's handler, with the GET's headers (node leaves the body out). */
function asHead(handler: RouteHandler): RouteHandler {
  return (req, res) => {
    sameHeadersAsGet(res);
    return handler(req, res);
  };
}

/**
 * The path's segments as polka 0.5 matches them (trouter 2 via matchit): one leading and one
 * trailing slash dropped, '/' a segment of its own.
 */
function segments(path: string): string[] {
  if (path === '/') return [path];
  const from = path.charCodeAt(0) === 47 ? 1 : 0;
  const to = path.length > from && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
  return path.slice(from, to).split('/');
}

/**
 * Only static and `:name` segments, and no path with two routes of one method: so the order of
 * the table changes no answer (polka takes the first route that matches), only how soon the
 * lookup is found.
 */
function checkTable(routes: readonly Route[]): void {
  const seen = new Map<string, { route: Route; parts: (string | null)[] }[]>();
  for (const route of routes) {
    const parts = segments(route.path).map((p) => {
      if (/[*?]/.test(p)) throw new Error(`route ${route.path}: only static and :name segments are supported`);
      if (!p.startsWith(':')) return p;
      if (!/^:[A-Za-z_]\w*$/.test(p)) throw new Error(`route ${route.path}: a parameter name is a word (${p})`);
      return null;
    });
    // A `:name` matches any segment but the root's.
    const same = (a: string | null, b: string | null) =>
      a === b || (a === null && b !== '/') || (b === null && a !== '/');
    const list = seen.get(route.method) ?? [];
    const other = list.find((o) => o.parts.length === parts.length && o.parts.every((s, i) => same(s, parts[i]!)));
    if (other) throw new Error(`routes ${route.method} ${other.route.path} and ${route.path} can match the same path`);
    seen.set(route.method, [...list, { route, parts }]);
  }
}

/** The polka app answering `routes` in their order (the lookup first: nearly every request is one). */
export function routeTableApp(routes: readonly Route[], hooks: RouterHooks): RouteTableApp {
  checkTable(routes);
  /** Each handler given to polka and its route: onError finds which one failed by polka's own search. */
  const routeOf = new Map<unknown, Route>();
  // polka's onError; 0.5 calls it from a middleware's next(err) only (there are none), guard() does.
  const onError: OnError = (err, req, res) => {
    const r = req as RouteRequest & Partial<polka.Request>;
    const found = r.path === undefined ? undefined : app.find(r.method as Trouter.HTTPMethod, r.path);
    hooks.onError(err, r, res, found ? routeOf.get(found.handlers[0]) : undefined);
  };
  /** The methods that have a route for this path, in Allow's order. */
  const allowed = (path: string, except?: string) => ALLOW_ORDER.filter((m) => m !== except && app.find(m, path));
  const app = polka({
    onError,
    onNoMatch: guard((req, res) => {
      if (req.method === 'HEAD') sameHeadersAsGet(res);
      return hooks.noMatch(req, res, allowed((req as RouteRequest & polka.Request).path, req.method));
    }, onError),
  });
  for (const route of routes) {
    const handler = guard(route.handler, onError);
    routeOf.set(handler, route);
    app.add(route.method, route.path, handler);
    if (route.method !== 'GET') continue;
    const head = guard(asHead(route.handler), onError);
    routeOf.set(head, route);
    app.add('HEAD', route.path, head);
  }
  return { routes, handler: (req, res) => app.handler(req as polka.Request, res) };
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
