// What every API route that takes a token does around its work: find the token, send a refusal
// of the access layer with its headers, and answer an error that counts no call with the quota
// headers (or 429 when the quota is used up), as docs/errors.md orders them.
import type { ServerResponse } from 'node:http';
import type { AccessDenied, AccessIdentity, AccessLayer, QuotaState } from '../../domain/metering/access.ts';
import type { ErrorKey } from '../../domain/api-errors.ts';
import { setLogAccount } from '../http/log.ts';
import type { RouteRequest } from '../http/router.ts';
import { sendError } from './errors.ts';

export function rateLimitHeaders(q: QuotaState): Record<string, number> {
  return { 'X-RateLimit-Limit': q.limit, 'X-RateLimit-Remaining': q.remaining, 'X-RateLimit-Reset': q.reset };
}

/** The headers of a refused call: the quota's once the token is known, and Retry-After. */
export function deniedHeaders(d: AccessDenied): Record<string, number> {
  const headers: Record<string, number> = d.quota ? rateLimitHeaders(d.quota) : {};
  if (d.retryAfter !== undefined) headers['Retry-After'] = d.retryAfter;
  return headers;
}

/** A refused call: the access layer's code, its sentence (expiry date, plan, renewal day) and Retry-After. */
export function sendDenied(res: ServerResponse, d: AccessDenied): void {
  sendError(res, d.error satisfies ErrorKey, deniedHeaders(d), d.message);
}

/** Authorization: Bearer wins over ?api_token=. */
export function tokenOf(req: RouteRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h === 'string') {
    const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(h);
    if (m) return m[1];
  }
  const q = req.query?.api_token;
  if (typeof q === 'string') return q;
  if (Array.isArray(q) && typeof q[0] === 'string') return q[0];
  return undefined;
}

/**
 * An error answer that counts no call (400, 413, 415, 503): the token checked afresh, the quota
 * headers with it, and 429 instead when the quota is used up (or the token's refusal when it
 * changed meanwhile).
 */
export function sendUncounted(
  res: ServerResponse,
  access: AccessLayer,
  token: string | undefined,
  key: ErrorKey,
  message?: string,
  headers?: Record<string, string>,
): Promise<void> {
  return withFreshQuota(
    access,
    token,
    (d) => sendDenied(res, d),
    (quota) => sendError(res, key, { ...quota, ...headers }, message),
  );
}

/**
 * The check before an answer that counts no call: the token decided afresh with this month's
 * usage; `denied` gets its refusal (quota_exceeded when nothing is left), `ok` the rate-limit
 * headers to send. The envelope is the caller's (native here, an upstream's on the compat routes).
 */
export async function withFreshQuota(
  access: AccessLayer,
  token: string | undefined,
  denied: (d: AccessDenied) => void,
  ok: (quotaHeaders: Record<string, number>) => void,
): Promise<void> {
  const q = await access.authenticate(token);
  return q.ok ? ok(rateLimitHeaders(q.quota)) : denied(q);
}

/**
 * A route's handler that starts as every counted route does: the token identified (a refusal is
 * sent and counts nothing), the account named in the request log, then `work` with the identity
 * (to count the call) and the token (for answers that count none).
 */
export function identified(
  access: AccessLayer,
  work: (req: RouteRequest, res: ServerResponse, id: AccessIdentity, token: string | undefined) => Promise<void> | void,
): (req: RouteRequest, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const token = tokenOf(req);
    const id = await access.identifyForCount(token);
    if (!id.ok) return sendDenied(res, id);
    setLogAccount(res, id.accountId);
    return work(req, res, id, token);
  };
}
