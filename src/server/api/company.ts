// GET /api/v1/brazilian_companies/:cnpj/company
// Order (docs/errors.md): authenticate → validate CNPJ → registry available → count the call →
// lookup. Auth failures and invalid CNPJs are not counted; 200 and 404 are.
import type { ServerResponse } from 'node:http';
import type { AccessDenied, ApiAccess, QuotaState } from '../../domain/accounts/api-access.ts';
import { normalizeCnpj } from '../../domain/cnpj.ts';
import { decodeSafe } from '../../lib/uri.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import type { ErrorKey } from '../../domain/api-errors.ts';
import { sendError, sendJson } from './errors.ts';
import { setLogAccount } from '../http/log.ts';
import type { RouteRequest } from '../http/router.ts';

export const COMPANY_ROUTE = '/api/v1/brazilian_companies/:cnpj/company';
/** `33.683.111/0002-80` typed into the path splits it in two segments: accepted as a convenience. */
export const COMPANY_ROUTE_SLASHED = '/api/v1/brazilian_companies/:a/:b/company';

export function rateLimitHeaders(q: QuotaState): Record<string, number> {
  return { 'X-RateLimit-Limit': q.limit, 'X-RateLimit-Remaining': q.remaining, 'X-RateLimit-Reset': q.reset };
}

/** A refused call: the access layer's code, its sentence (expiry date, plan, renewal day) and Retry-After. */
function sendDenied(res: ServerResponse, d: AccessDenied): void {
  const headers: Record<string, number> = d.quota ? rateLimitHeaders(d.quota) : {};
  if (d.retryAfter !== undefined) headers['Retry-After'] = d.retryAfter;
  sendError(res, d.error satisfies ErrorKey, headers, d.message);
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

export interface CompanyDeps {
  access: ApiAccess;
  reader: CompanyRegistry;
}

export function companyHandler(deps: CompanyDeps) {
  const { access, reader } = deps;
  // Its promise, when it has one, goes to the router: a rejection is the app's logged 500.
  return (req: RouteRequest, res: ServerResponse): Promise<void> | void => {
    const token = tokenOf(req);
    const id = access.identifyForCount(token);
    if (!id.ok) return sendDenied(res, id);
    setLogAccount(res, id.accountId);
    // Answers that count no call are checked afresh and still carry the quota headers (and
    // 429 when the quota is used up).
    const uncounted = (key: ErrorKey) => {
      const q = access.authenticate(token);
      return q.ok ? sendError(res, key, rateLimitHeaders(q.quota)) : sendDenied(res, q);
    };
    const raw = req.params.cnpj !== undefined ? decodeSafe(req.params.cnpj) : `${decodeSafe(req.params.a ?? '')}/${decodeSafe(req.params.b ?? '')}`;
    const cnpj = normalizeCnpj(raw);
    if (cnpj === null) return uncounted('invalid_cnpj');
    if (!reader.available) return uncounted('registry_unavailable');
    // Group commit: the calls of one event-loop turn share one durable transaction, and each
    // answer leaves only after its count is on disk.
    return access.consumeGrouped(id).then((counted) => {
      if (!counted.ok) return sendDenied(res, counted);
      const body = reader.lookup(cnpj);
      if (body === null) return sendError(res, 'not_found', rateLimitHeaders(counted.quota));
      sendJson(res, 200, body, rateLimitHeaders(counted.quota));
    });
  };
}
