// GET /api/v1/brazilian_companies/:cnpj/company
// Order (docs/errors.md): authenticate → validate CNPJ → registry available → count the call →
// lookup. Auth failures and invalid CNPJs are not counted; 200 and 404 are.
import type { ServerResponse } from 'node:http';
import type { AccessDenied, AccessIdentity, AccessLayer } from '../../domain/metering/access.ts';
import { normalizeCnpj } from '../../domain/cnpj.ts';
import { decodeSafe } from '../../lib/uri.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import type { ErrorKey } from '../../domain/api-errors.ts';
import { rateLimitHeaders, sendDenied, sendUncounted, tokenOf } from './access.ts';
import { sendError, sendJson } from './errors.ts';
import { setLogAccount } from '../http/log.ts';
import { registryHeaders } from './registry-headers.ts';
import type { RouteRequest } from '../http/router.ts';

export const COMPANY_ROUTE = '/api/v1/brazilian_companies/:cnpj/company';
/** `33.683.111/0002-80` typed into the path splits it in two segments: accepted as a convenience. */
export const COMPANY_ROUTE_SLASHED = '/api/v1/brazilian_companies/:a/:b/company';

/** The CNPJ of a `:cnpj` route as typed, percent-decoded (its `:a/:b` form joined by its `/`). */
export function pathCnpjText(req: RouteRequest): string {
  return req.params.cnpj !== undefined
    ? decodeSafe(req.params.cnpj)
    : `${decodeSafe(req.params.a ?? '')}/${decodeSafe(req.params.b ?? '')}`;
}

/** The normalised CNPJ of a `:cnpj` route (or its `:a/:b` form); null when invalid. */
export function pathCnpj(req: RouteRequest): string | null {
  return normalizeCnpj(pathCnpjText(req));
}

export interface CompanyDeps {
  access: AccessLayer;
  reader: CompanyRegistry;
}

export function companyHandler(deps: CompanyDeps) {
  const { access, reader } = deps;
  // Its promise, when it has one, goes to the route table's wrapper: a rejection is the app's logged 500.
  return (req: RouteRequest, res: ServerResponse): Promise<void> | void => {
    const token = tokenOf(req);
    const id = access.identifyForCount(token);
    // A promise only where the token had to be read from the shared database (PostgreSQL).
    if (id instanceof Promise) return id.then((d) => counted(req, res, token, d));
    return counted(req, res, token, id);
  };
  function counted(
    req: RouteRequest,
    res: ServerResponse,
    token: string | undefined,
    id: AccessIdentity | AccessDenied,
  ): Promise<void> | void {
    if (!id.ok) return sendDenied(res, id);
    setLogAccount(res, id.accountId);
    // Answers that count no call are checked afresh and still carry the quota headers (and
    // 429 when the quota is used up).
    const uncounted = (key: ErrorKey) => sendUncounted(res, access, token, key);
    const cnpj = pathCnpj(req);
    if (cnpj === null) return uncounted('invalid_cnpj');
    if (!reader.available) return uncounted('registry_unavailable');
    // Group commit: the calls of one event-loop turn share one durable transaction, and each
    // answer leaves only after its count is on disk.
    return access.consumeGrouped(id).then((counted) => {
      if (!counted.ok) return sendDenied(res, counted);
      // The snapshot read on the next line names itself (a swap may have come while the call was counted).
      const headers = { ...rateLimitHeaders(counted.quota), ...registryHeaders(reader.info) };
      const body = reader.lookup(cnpj);
      if (body === null) return sendError(res, 'not_found', headers);
      sendJson(res, 200, body, headers);
    });
  }
}
