// GET /api/v1/brazilian_companies/:cnpj/company
// Order (docs/errors.md): authenticate → validate CNPJ → registry available → count the call →
// lookup. Auth failures and invalid CNPJs are not counted; 200 and 404 are.
import type { AccessLayer } from '../../domain/metering/access.ts';
import { normalizeCnpj } from '../../domain/cnpj.ts';
import { decodeSafe } from '../../lib/uri.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import type { ErrorKey } from '../../domain/api-errors.ts';
import { identified, rateLimitHeaders, sendDenied, sendUncounted } from './access.ts';
import { sendError, sendJson } from './errors.ts';
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
  registry: CompanyRegistry;
}

export function companyHandler(deps: CompanyDeps) {
  const { access, registry } = deps;
  // A rejection goes to the route table's wrapper: the app's logged 500 (503 for an outage).
  return identified(access, async (req, res, id, token) => {
    // Answers that count no call are checked afresh and still carry the quota headers (and
    // 429 when the quota is used up).
    const uncounted = (key: ErrorKey) => sendUncounted(res, access, token, key);
    const cnpj = pathCnpj(req);
    if (cnpj === null) return uncounted('invalid_cnpj');
    if (!registry.available) return uncounted('registry_unavailable');
    // The calls arriving together share one durable batch, and each answer leaves only after its
    // count is on disk.
    const counted = await access.charge(id);
    if (!counted.ok) return sendDenied(res, counted);
    // The snapshot read on the next line names itself (a swap may have come while the call was counted).
    const headers = { ...rateLimitHeaders(counted.quota), ...registryHeaders(registry.info) };
    const body = registry.lookup(cnpj);
    if (body === null) return sendError(res, 'not_found', headers);
    sendJson(res, 200, body, headers);
  });
}
