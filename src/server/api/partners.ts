// GET /api/v1/partners?nome=&cnpj_cpf=&order=&limit&cursor: one row per (partner, company), with
// a name in the relevance order (exact names first), else in the partners table's order (keyset
// on its rowid), each with its company's head office summary (domain/search/partners.ts). One
// call of quota per request, as the company search.
import { partnersScope } from '../../domain/search/paging.ts';
import { PartnerSearchQuerySchema } from '../../domain/search/query-schema.ts';
import { sendJson } from './errors.ts';
import { cursorKey, nextCursor, searchRoute, type SearchDeps } from './search-route.ts';

export const PARTNERS_ROUTE = '/api/v1/partners';

/** The cursor's scope: the route and both filters. */

const MISSING = 'Informe ao menos um filtro da busca de sócios: nome ou cnpj_cpf.';

export function partnersHandler(deps: SearchDeps) {
  return searchRoute(deps, {
    schema: PartnerSearchQuerySchema,
    check: (v) =>
      v.nome === undefined && v.cnpj_cpf === undefined ? { key: 'missing_filter', message: MISSING } : null,
    answer: (search, _snap, v) => {
      const filters = { nome: v.nome, cnpj_cpf: v.cnpj_cpf };
      const scope = partnersScope({ ...filters, order: v.order });
      const page = search.partners(filters, { limit: v.limit, after: cursorKey(scope, v.cursor), order: v.order });
      const body = { data: page.rows, next_cursor: nextCursor(scope, page.next) };
      return (res, headers) => sendJson(res, 200, body, headers);
    },
  });
}
