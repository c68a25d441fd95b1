// GET /api/v1/brazilian_companies/:cnpj/establishments?limit=&cursor=: every establishment of
// the CNPJ's company, head office first (domain/company/establishments.ts), one page per call.
// Order (docs/errors.md): authenticate → CNPJ (400 invalid_cnpj) → parameters and cursor (400
// invalid_parameter) → registry available (503) → count one call (429) → 404 for an unknown CNPJ
// (counted, as a lookup's) or the page.
import type { AccessLayer } from '../../domain/metering/access.ts';
import { INVALID_CURSOR_MESSAGE } from '../../domain/cursor.ts';
import { readEstablishmentsCursor, type EstablishmentsAfter } from '../../domain/company/establishments.ts';
import { EstablishmentsQuerySchema } from '../../domain/company/list-schema.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { queryReader } from '../http/query-params.ts';
import { identified, rateLimitHeaders, sendDenied, sendUncounted } from './access.ts';
import { pathCnpj } from './company.ts';
import { sendError, sendJson } from './errors.ts';

export const ESTABLISHMENTS_ROUTE = '/api/v1/brazilian_companies/:cnpj/establishments';
/** The formatted CNPJ typed with its `/`, as for the lookup. */
export const ESTABLISHMENTS_ROUTE_SLASHED = '/api/v1/brazilian_companies/:a/:b/establishments';

export interface EstablishmentsDeps {
  access: AccessLayer;
  registry: CompanyRegistry;
}

export function establishmentsHandler(deps: EstablishmentsDeps) {
  const { access, registry } = deps;
  const readQuery = queryReader(EstablishmentsQuerySchema);
  return identified(access, (req, res, id, token) => {
    const cnpj = pathCnpj(req);
    if (cnpj === null) return sendUncounted(res, access, token, 'invalid_cnpj');
    const query = readQuery(req.query);
    if (!query.ok) return sendUncounted(res, access, token, 'invalid_parameter', query.message);
    let after: EstablishmentsAfter | null = null;
    if (query.value.cursor !== undefined) {
      after = readEstablishmentsCursor(cnpj, query.value.cursor);
      if (after === null) return sendUncounted(res, access, token, 'invalid_parameter', INVALID_CURSOR_MESSAGE);
    }
    if (!registry.available) return sendUncounted(res, access, token, 'registry_unavailable');
    const limit = query.value.limit;
    return access.charge(id).then((counted) => {
      if (!counted.ok) return sendDenied(res, counted);
      const page = registry.establishments(cnpj, limit, after);
      if (page === null) return sendError(res, 'not_found', rateLimitHeaders(counted.quota));
      sendJson(res, 200, page, rateLimitHeaders(counted.quota));
    });
  });
}
