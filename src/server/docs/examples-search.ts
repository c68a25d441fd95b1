// The documented examples of the search routes, shared by /openapi.json and /docs: curl commands
// and answers built by the real code (mapping, cursor scopes), so the documentation cannot drift.
import { encodeCursor } from '../../domain/cursor.ts';
import { exampleResponse } from '../../domain/company/example.ts';
import type { CompanySearchPage, PartnersPage, SuggestResponse } from '../../domain/search/query-schema.ts';
import { partnersScope, scopeOf } from '../../domain/search/paging.ts';

const root = (baseUrl: string) => baseUrl.replace(/\/+$/, '');
const AUTH = 'curl -H "Authorization: Bearer $CNPJ_API_TOKEN"';

/** The example search: active companies of Brasília (DF) with "serpro" in a name. */
export const SEARCH_EXAMPLE_QUERY = 'q=serpro&uf=DF&situacao_cadastral=ativa&limit=1';
const SEARCH_EXAMPLE_VALUES = { q: 'serpro', uf: ['DF'], situacao_cadastral: ['ativa' as const] };

export const searchCurl = (baseUrl: string, cursor?: string) =>
  `${AUTH} "${root(baseUrl)}/api/v1/brazilian_companies?${SEARCH_EXAMPLE_QUERY}${cursor ? `&cursor=${cursor}` : ''}"`;

/** The CSV of the same page, saved to a file; -D - shows the headers (X-Next-Cursor among them). */
export const searchCsvCurl = (baseUrl: string) =>
  `${AUTH} -D - -o empresas.csv "${root(baseUrl)}/api/v1/brazilian_companies?${SEARCH_EXAMPLE_QUERY.replace('limit=1', 'limit=100')}&format=csv"`;

export const countCurl = (baseUrl: string) =>
  `${AUTH} "${root(baseUrl)}/api/v1/brazilian_companies/count?cnae=6204&uf=DF,GO&situacao_cadastral=ativa"`;

export const partnersCurl = (baseUrl: string) =>
  `${AUTH} "${root(baseUrl)}/api/v1/partners?nome=andre%20cesero&limit=20"`;

export function searchExample(): CompanySearchPage {
  const company = exampleResponse().company;
  // With q the cursor names the relevance tier (here: every word present) and the last CNPJ.
  return { data: [company], next_cursor: encodeCursor(scopeOf(SEARCH_EXAMPLE_VALUES), `1:${company.cnpj}`) };
}

export const countExample = () => ({ count: 128, exact: true });

export const suggestCurl = (baseUrl: string) =>
  `${AUTH} "${root(baseUrl)}/api/v1/brazilian_companies/suggest?q=serpr&uf=DF&limit=5"`;

export function suggestExample(): SuggestResponse {
  const c = exampleResponse().company;
  const { cnpj, razao_social, nome_fantasia, uf, municipio, situacao_cadastral } = c;
  return { data: [{ cnpj, razao_social, nome_fantasia, uf, municipio, situacao_cadastral }] };
}

export function partnersExample(): PartnersPage {
  const { company, socios } = exampleResponse();
  const summary = {
    cnpj: company.cnpj.slice(0, 8) + '000180',
    razao_social: company.razao_social,
    situacao_cadastral: company.situacao_cadastral,
    uf: company.uf,
    municipio: company.municipio,
  };
  return {
    data: [{ ...socios[0]!, company: summary }],
    next_cursor: encodeCursor(partnersScope({ nome: 'andre cesero' }), '1234'),
  };
}
