// GET /api/v1/brazilian_companies?<filters>&limit&cursor (a page of companies, in CNPJ order)
// and GET /api/v1/brazilian_companies/count?<filters> ({count, exact}), over the snapshot's
// search index (domain/search, docs/search-api.md). One call of quota per request. `format=csv`
// answers the same page as CSV (csv.ts); the filters, not the format, scope the cursor.
import { companiesPage, suggestions } from '../../domain/search/counted.ts';
import { missingFilter } from '../../domain/search/paging.ts';
import {
  CompanyCountQuerySchema,
  CompanySearchQuerySchema,
  SuggestQuerySchema,
  toCompanyFilters,
} from '../../domain/search/query-schema.ts';
import { companiesCsv, sendCsv } from './csv.ts';
import { sendJson } from './errors.ts';
import { searchRoute, type SearchDeps } from './search-route.ts';

export const SEARCH_ROUTE = '/api/v1/brazilian_companies';
export const COUNT_ROUTE = '/api/v1/brazilian_companies/count';
export const SUGGEST_ROUTE = '/api/v1/brazilian_companies/suggest';

export function searchHandler(deps: SearchDeps) {
  return searchRoute(deps, {
    schema: CompanySearchQuerySchema,
    check: missingFilter,
    answer: (search, snap, v) => {
      const { data, next } = companiesPage(deps.registry, search, snap, v);
      if (v.format === 'csv') {
        const csv = companiesCsv(data);
        return (res, headers) => sendCsv(res, csv, next, headers);
      }
      const body = { data, next_cursor: next };
      return (res, headers) => sendJson(res, 200, body, headers);
    },
  });
}

export function countHandler(deps: SearchDeps & { countBound?: number }) {
  return searchRoute(deps, {
    schema: CompanyCountQuerySchema,
    check: missingFilter,
    answer: (search, _snap, v) => {
      // The engine's `source` is for logs and benchmarks, not the API.
      const { count, exact } = search.count(toCompanyFilters(v), { bound: deps.countBound });
      return (res, headers) => sendJson(res, 200, { count, exact }, headers);
    },
  });
}

export function suggestHandler(deps: SearchDeps) {
  return searchRoute(deps, {
    schema: SuggestQuerySchema,
    answer: (search, snap, v) => {
      const body = { data: suggestions(deps.registry, search, snap, v) };
      return (res, headers) => sendJson(res, 200, body, headers);
    },
  });
}
