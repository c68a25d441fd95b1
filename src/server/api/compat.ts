// The compatibility routes (docs/compat.md): BrasilAPI, Minha Receita, OpenCNPJ and ReceitaWS
// answers from the active snapshot, so client code written for those services moves here by
// changing its base URL. Each shape (domain/compat) says how its upstream reads the CNPJ and
// writes its bodies; this module does what is the same for the four, in the native lookup's
// order (docs/errors.md): the token (Authorization, api_token, or the /t/{token}/ prefix, or the
// operator's tokenless account) → the CNPJ as the upstream reads it → registry available → the
// call counted (200 and 404 count; a refused CNPJ does not) → the answer, with the native
// lookup's rate-limit headers and CORS on every status.
import type { ServerResponse } from 'node:http';
import type { AccessDenied, AccessIdentity, AccessLayer } from '../../domain/metering/access.ts';
import { ERRORS, type ErrorKey } from '../../domain/api-errors.ts';
import { isValidCnpj } from '../../domain/cnpj.ts';
import { ibgeOfSiafi } from '../../domain/compat/ibge.ts';
import { compatRowsOf } from '../../domain/compat/rows.ts';
import type { CompatAnswer, CompatShape } from '../../domain/compat/shape.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { decodeSafe } from '../../lib/uri.ts';
import { DatabaseUnavailable } from '../../storage/app/pg-errors.ts';
import { clientIp } from '../http/forwarded.ts';
import { setLogAccount } from '../http/log.ts';
import type { Route, RouteRequest } from '../http/router.ts';
import { deniedHeaders, rateLimitHeaders, tokenOf, withFreshQuota } from './access.ts';
import { registryHeaders } from './registry-headers.ts';
import { pathCnpjText } from './company.ts';
import { AddressWindows, type CompatOpen } from './compat-open.ts';
import { COMPAT_SHAPES, compatPrefix, type CompatRoutes } from './compat-shapes.ts';
import { jsonpBody, jsonpCallback } from '../../domain/compat/jsonp.ts';

export interface CompatDeps {
  access: AccessLayer;
  registry: CompanyRegistry;
  now: () => Date;
  /** Client addresses come from X-Forwarded-For (the tokenless bound needs the real one). */
  trustProxy?: boolean;
  /** The operator's tokenless switch (off when absent). */
  open?: CompatOpen;
}

/** CORS on every compat answer: any origin, and the quota headers readable by the page. */
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Registry-Month, X-Registry-Release',
} as const;

type Headers = Record<string, string | number>;

/** A shape's own headers for a status with CORS, merged once per (shape, status). */
const baseHeaders = new Map<CompatShape, Map<number, Readonly<Headers>>>();
function headersOf(shape: CompatShape, status: number): Readonly<Headers> {
  let byStatus = baseHeaders.get(shape);
  if (byStatus === undefined) baseHeaders.set(shape, (byStatus = new Map()));
  let h = byStatus.get(status);
  if (h === undefined)
    byStatus.set(status, (h = { ...shape.headers(status), ...CORS, 'X-Content-Type-Options': 'nosniff' }));
  return h;
}

/** Writes a shape's answer: its own headers, CORS, the quota headers, the exact body text. */
function send(
  res: ServerResponse,
  shape: CompatShape,
  answer: CompatAnswer,
  headers: Headers = {},
  jsonp: string | null = null,
): void {
  // A string, not a Buffer: node then sends the head and the body in one write.
  const body = jsonp === null ? answer.body : jsonpBody(jsonp, answer.body);
  const out: Headers = { ...headersOf(shape, answer.status), ...headers, 'Content-Length': Buffer.byteLength(body) };
  if (jsonp !== null) out['Content-Type'] = 'text/javascript; charset=utf-8';
  res.writeHead(answer.status, out);
  res.end(body);
}

/** One of this project's refusals (a denial of the access layer, or an error key) in the shape's envelope. */
function sendRefused(
  res: ServerResponse,
  shape: CompatShape,
  key: ErrorKey,
  message: string,
  headers: Headers,
  jsonp: string | null,
): void {
  const def = ERRORS[key];
  send(res, shape, shape.refused(def.status, def.error, message), headers, jsonp);
}

/** The handler of one shape's lookup routes. */
export function compatHandler(shape: CompatShape, deps: CompatDeps) {
  const { access, registry } = deps;
  const windows = deps.open ? new AddressWindows(deps.open.perMinute) : null;

  return async (req: RouteRequest, res: ServerResponse): Promise<void> => {
    // ReceitaWS's browser callers use JSONP: every answer of theirs goes through the callback.
    let jsonp: string | null = null;
    if (shape.name === 'receitaws') {
      const cb = jsonpCallback(req.query.callback);
      if (cb !== null) jsonp = cb;
    }
    const fromPath = req.params.token;
    const token = fromPath !== undefined ? decodeSafe(fromPath) : tokenOf(req);
    try {
      let id: AccessIdentity | AccessDenied;
      if (token === undefined && deps.open && windows) {
        const took = windows.take(clientIp(req, deps.trustProxy), deps.now().getTime());
        if (took !== true) {
          const key = 'address_rate_limited';
          return sendRefused(res, shape, key, ERRORS[key].message, { 'Retry-After': took.retryAfter }, jsonp);
        }
        // A fleet node that started during an outage has not looked the account up yet.
        if (deps.open.accountId === null) throw new DatabaseUnavailable('account not looked up yet');
        id = await access.identifyAccount(deps.open.accountId);
      } else id = await access.identifyForCount(token);
      await identified(req, res, id, token, jsonp);
    } catch (err) {
      // A shared-database outage in the shape's envelope (the app's handler would answer the native one).
      if (!(err instanceof DatabaseUnavailable) || res.headersSent) throw err;
      const key = 'database_unavailable';
      sendRefused(res, shape, key, ERRORS[key].message, { 'Retry-After': ERRORS[key].retryAfter }, jsonp);
    }
  };

  async function identified(
    req: RouteRequest,
    res: ServerResponse,
    id: AccessIdentity | AccessDenied,
    token: string | undefined,
    jsonp: string | null,
  ): Promise<void> {
    if (!id.ok) return sendRefused(res, shape, id.error, id.message, deniedHeaders(id), jsonp);
    setLogAccount(res, id.accountId);
    const parsed = shape.parse(pathCnpjText(req));
    if ('invalid' in parsed) return uncounted(res, token, parsed.invalid, jsonp);
    const cnpj = parsed.cnpj;
    // Well formed for the upstream but no CNPJ for us (fourteen zeros, wrong check digits where
    // the upstream does not check them): the upstream's 404, and no call counted.
    if (!isValidCnpj(cnpj)) return uncounted(res, token, shape.notFound(cnpj), jsonp);
    if (!registry.available) {
      const def = ERRORS.registry_unavailable;
      return uncounted(res, token, shape.refused(def.status, def.error, def.message), jsonp);
    }
    const counted = await access.charge(id);
    if (!counted.ok) return sendRefused(res, shape, counted.error, counted.message, deniedHeaders(counted), jsonp);
    const quota = rateLimitHeaders(counted.quota);
    const found = compatRowsOf(registry, cnpj);
    if (found === null)
      return send(res, shape, shape.notFound(cnpj), { ...quota, ...registryHeaders(registry.info) }, jsonp);
    const { snapshot } = found;
    const ctx = { codeTables: snapshot.codeTables, info: snapshot.info, ibge: ibgeOfSiafi };
    send(res, shape, shape.found(found.rows, ctx), { ...quota, ...registryHeaders(snapshot.info) }, jsonp);
  }

  /**
   * An answer that counts no call, with the quota headers read afresh (429 instead when the quota
   * is used up, as the native lookup does). The tokenless account's calls carry no quota headers
   * here: its quota is the operator's, not the caller's.
   */
  function uncounted(
    res: ServerResponse,
    token: string | undefined,
    answer: CompatAnswer,
    jsonp: string | null,
  ): Promise<void> | void {
    if (token === undefined && deps.open) return send(res, shape, answer, {}, jsonp);
    return withFreshQuota(
      access,
      token,
      (d) => sendRefused(res, shape, d.error, d.message, deniedHeaders(d), jsonp),
      (quota) => send(res, shape, answer, quota, jsonp),
    );
  }
}

/** Answers a CORS preflight as the shape's upstream does (status, methods), allowing the headers asked for. */
function preflight(routes: CompatRoutes) {
  return (req: RouteRequest, res: ServerResponse) => {
    const asked = req.headers['access-control-request-headers'];
    const headers: Headers = {
      ...CORS,
      'Access-Control-Allow-Methods': routes.preflightMethods,
      'Access-Control-Allow-Headers': typeof asked === 'string' && asked !== '' ? asked : routes.preflightHeaders,
      'Access-Control-Max-Age': 86400,
      Vary: 'Access-Control-Request-Headers',
      'Content-Length': 0,
    };
    res.writeHead(routes.preflightStatus, headers);
    res.end();
  };
}

/** Every compat route: each shape's paths, each also behind /t/{token}/, and their preflights. */
export function compatRoutes(deps: CompatDeps): Route[] {
  const out: Route[] = [];
  for (const routes of COMPAT_SHAPES) {
    const handler = compatHandler(routes.shape, deps);
    const options = preflight(routes);
    for (const path of routes.paths) {
      for (const p of [path, `/t/:token${path}`]) {
        out.push({ method: 'GET', path: p, handler });
        out.push({ method: 'OPTIONS', path: p, handler: options });
      }
    }
  }
  return out;
}

/**
 * A request under a compat prefix that no route took (unknown path, other method): the shape's
 * envelope instead of the native one. False when the path is not a compat path.
 */
export function compatNoMatch(req: RouteRequest, res: ServerResponse, allow: readonly string[]): boolean {
  const path = (req.url ?? '').split('?')[0]!;
  const routes = compatPrefix(path);
  if (routes === null) return false;
  const key: ErrorKey = allow.length > 0 ? 'method_not_allowed' : 'route_not_found';
  const headers: Headers = allow.length > 0 ? { Allow: allow.join(', ') } : {};
  const message = allow.length > 0 ? routes.methodNotAllowed : ERRORS[key].message;
  sendRefused(res, routes.shape, key, message, headers, null);
  return true;
}
