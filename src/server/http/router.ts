// The route table on node:http: one list of (method, path pattern, handler) for the API, the docs
// and the web app; a handler's failure, thrown or rejected, reaches one error handler; a path
// known for other methods answers 405 with Allow; HEAD is answered wherever GET is.
//
// Paths match as polka 0.5 matched them (so answers stay what they were): the path is the target
// up to its first `?`, one leading and one trailing slash do not count, a `:name` segment matches
// any segment (even an empty one, undecoded). Patterns are tried first, each one regular
// expression over the whole target (the lookup is the first: one exec, no URL parsing before it),
// then static paths in a Map. No path has two routes of one method, so the order changes nothing.
// The query is node:querystring's parse, as polka's was.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';

/** The methods a route may declare; HEAD comes with GET. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** What Allow may list, in the order it lists them. */
const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export interface RouteRequest extends IncomingMessage {
  /** The `:name` segments of the pattern, as sent (percent-encoding left in). */
  params: Record<string, string>;
  query: ParsedUrlQuery;
}

/** May answer at once or later; a throw or a rejection goes to the router's onError. */
export type RouteHandler = (req: RouteRequest, res: ServerResponse) => unknown;

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
  noMatch(req: RouteRequest, res: ServerResponse, allow: readonly string[]): unknown;
}

interface Pattern {
  /**
   * The whole target: the path, then `?query`. One leading slash is optional (the first segment
   * is static, so it cannot shift), and a trailing slash is dropped before the last segment
   * matches (`/a/` is not `/a/:x` with an empty x, `/a//` is). `:name` segments are named groups:
   * `groups` is the params object.
   */
  regex: RegExp;
  route: Route;
}

interface Match {
  route: Route;
  params: Record<string, string>;
  /** The target after its first `?` ('' without one). */
  query: string;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** The path as matched: one leading and one trailing slash dropped ('/' stays '/'). */
function strip(path: string): string {
  if (path === '/') return path;
  const from = path.charCodeAt(0) === 47 ? 1 : 0;
  const to = path.length > from && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
  return path.slice(from, to);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(route: Route, parts: string[]): Pattern {
  if (parts[0]!.startsWith(':')) throw new Error(`route ${route.path}: the first segment is static`);
  const body = parts
    .map((p) => {
      if (!p.startsWith(':')) return escape(p);
      if (!/^:[A-Za-z_]\w*$/.test(p)) throw new Error(`route ${route.path}: a parameter name is a word (${p})`);
      return `(?<${p.slice(1)}>[^/?]*)`;
    })
    .join('/');
  return { regex: new RegExp(`^/?${body}(?:/|(?<!/))(?:\\?(.*))?$`, 's'), route };
}

export class Router {
  private readonly statics = new Map<string, Map<string, Route>>();
  private readonly patterns = new Map<string, Pattern[]>();
  /** Each method's routes as segments (null: a `:name`), to refuse two routes for one path. */
  private readonly shapes = new Map<string, { route: Route; segments: (string | null)[] }[]>();

  constructor(
    /** The table, as given (HEAD not listed: it comes with GET). */
    readonly routes: readonly Route[],
    private readonly hooks: RouterHooks,
  ) {
    for (const route of routes) {
      this.add(route.method, route);
      // HEAD wherever GET: the same handler (node leaves the body out, see sameHeadersAsGet).
      if (route.method === 'GET') this.add('HEAD', route);
    }
  }

  /** No path has two routes of one method: so the order they are tried in changes nothing. */
  private refuseOverlap(method: string, route: Route, parts: string[]): void {
    const segments = parts.map((p) => (p.startsWith(':') ? null : p));
    const list = this.shapes.get(method) ?? [];
    const other = list.find((o) => o.segments.length === segments.length && o.segments.every((s, i) => s === null || segments[i] === null || s === segments[i]));
    if (other) throw new Error(`routes ${method} ${other.route.path} and ${route.path} can match the same path`);
    this.shapes.set(method, [...list, { route, segments }]);
  }

  private add(method: string, route: Route): void {
    const key = strip(route.path);
    if (/[*?]/.test(key)) throw new Error(`route ${route.path}: only static and :name segments are supported`);
    // '/' is one segment of its own, as in polka (no `:name` matches it).
    const parts = key === '/' ? [key] : key.split('/');
    this.refuseOverlap(method, route, parts);
    if (!parts.some((p) => p.startsWith(':'))) {
      this.statics.set(key, (this.statics.get(key) ?? new Map<string, Route>()).set(method, route));
    } else {
      this.patterns.set(method, [...(this.patterns.get(method) ?? []), compile(route, parts)]);
    }
  }

  /** The route for this method and request target (a path, with or without its query). */
  match(method: string, target: string): Match | undefined {
    const list = this.patterns.get(method);
    if (list !== undefined) {
      for (const p of list) {
        const m = p.regex.exec(target);
        if (m === null) continue;
        return { route: p.route, params: m.groups!, query: m[m.length - 1] ?? '' };
      }
    }
    const q = target.indexOf('?');
    const route = this.statics.get(strip(q < 0 ? target : target.slice(0, q)))?.get(method);
    return route && { route, params: NO_PARAMS, query: q < 0 ? '' : target.slice(q + 1) };
  }

  /** The methods that have a route for this path, in Allow's order. */
  allowed(path: string, except?: string): string[] {
    return ALLOW_ORDER.filter((m) => m !== except && this.match(m, path) !== undefined);
  }

  /** The http server's request handler, after the in-flight bounds. */
  dispatch(req: IncomingMessage, res: ServerResponse): void {
    const r = req as RouteRequest;
    let route: Route | undefined;
    try {
      const url = req.url ?? '/';
      const found = this.match(req.method ?? '', url);
      if (req.method === 'HEAD') sameHeadersAsGet(res);
      let answer: unknown;
      if (found !== undefined) {
        route = found.route;
        r.params = found.params;
        r.query = parseQuery(found.query);
        answer = route.handler(r, res);
      } else {
        const q = url.indexOf('?');
        r.params = NO_PARAMS;
        r.query = parseQuery(q < 0 ? '' : url.slice(q + 1));
        answer = this.hooks.noMatch(r, res, this.allowed(q < 0 ? url : url.slice(0, q), req.method));
      }
      if (answer instanceof Promise) this.onRejection(answer, r, res, route);
    } catch (err) {
      this.hooks.onError(err, r, res, route);
    }
  }

  // Apart from dispatch: a closure there would put dispatch's variables in a context allocated per request.
  private onRejection(answer: Promise<unknown>, req: RouteRequest, res: ServerResponse, route: Route | undefined): void {
    answer.then(undefined, (err: unknown) => this.hooks.onError(err, req, res, route));
  }
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
