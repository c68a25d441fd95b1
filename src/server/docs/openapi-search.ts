// The /openapi.json operations of the search routes: the company search (JSON or CSV), its count
// and the partner search, their parameters from the very schemas the routes read them with.
import {
  CompanyCountQuerySchema,
  CompanySearchQuerySchema,
  PartnerSearchQuerySchema,
} from '../../domain/search/query-schema.ts';
import {
  countCurl,
  countExample,
  partnersCurl,
  partnersExample,
  searchCsvCurl,
  searchCurl,
  searchExample,
} from './examples-search.ts';
import { COMMON_ERRORS, RATE_HEADERS, curlSample, errorResponses, okJson, queryParameters } from './openapi-parts.ts';
import { EXAMPLE_CNPJ, EXAMPLE_CNPJ_PRETTY } from '../../domain/cnpj.ts';

const SEARCH_ERRORS = [...COMMON_ERRORS, 'invalid_parameter', 'missing_filter', 'search_unavailable'] as const;
const COUNTS =
  'Conta uma consulta na cota por requisição, qualquer que seja o tamanho da página; erros (400, 503) e falhas de autenticação não contam.';
export function searchPaths(baseUrl: string): Record<string, unknown> {
  return {
    '/api/v1/brazilian_companies': {
      get: {
        operationId: 'searchCompanies',
        summary: 'Busca empresas por nome, atividade, local, situação, porte e regime',
        description:
          'Estabelecimentos que atendem a todos os filtros (E entre parâmetros; vírgula dá OU dentro de um parâmetro), em ordem de CNPJ, em páginas de até 100. ' +
          'Informe ao menos um filtro (senão 400 missing_filter). Para a próxima página, repita a chamada com os mesmos filtros e cursor=next_cursor; ' +
          'next_cursor null indica a última página. Com format=csv, a mesma página vem em CSV (UTF-8 com BOM, separador ";") e o cursor da próxima no cabeçalho X-Next-Cursor. ' +
          COUNTS,
        parameters: queryParameters(CompanySearchQuerySchema),
        'x-codeSamples': curlSample(searchCurl(baseUrl), searchCsvCurl(baseUrl)),
        responses: {
          '200': {
            description: 'Uma página de empresas (JSON), ou a mesma página em CSV com format=csv.',
            headers: {
              ...RATE_HEADERS,
              'X-Next-Cursor': {
                description: 'Só com format=csv: o cursor da próxima página; ausente na última.',
                schema: { type: 'string' },
              },
            },
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/CompanySearchPage' },
                example: searchExample(),
              },
              'text/csv': {
                schema: { type: 'string' },
                example: `cnpj;cnpj_pretty;razao_social;…\r\n${EXAMPLE_CNPJ};${EXAMPLE_CNPJ_PRETTY};SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO);…\r\n`,
              },
            },
          },
          ...errorResponses(SEARCH_ERRORS),
        },
      },
    },
    '/api/v1/brazilian_companies/count': {
      get: {
        operationId: 'countCompanies',
        summary: 'Conta as empresas de uma busca',
        description:
          'Quantos estabelecimentos atendem aos filtros (os mesmos da busca, sem limit, cursor e format). Exata para qualquer combinação sem q; ' +
          'com q a contagem pode parar num limite e responder exact: false. ' +
          COUNTS,
        parameters: queryParameters(CompanyCountQuerySchema),
        'x-codeSamples': curlSample(countCurl(baseUrl)),
        responses: {
          ...okJson('A contagem.', 'CountResponse', countExample()),
          ...errorResponses(SEARCH_ERRORS),
        },
      },
    },
    '/api/v1/partners': {
      get: {
        operationId: 'searchPartners',
        summary: 'Busca sócios por nome ou CPF/CNPJ, com as empresas de cada um',
        description:
          'Uma linha por sócio em cada empresa: os dados do sócio (como em socios da consulta por CNPJ) e um resumo da empresa (CNPJ da matriz, razão social, situação, UF, município). ' +
          'Informe nome, cnpj_cpf ou os dois (senão 400 missing_filter). Paginação como a da busca de empresas. ' +
          COUNTS,
        parameters: queryParameters(PartnerSearchQuerySchema),
        'x-codeSamples': curlSample(partnersCurl(baseUrl)),
        responses: {
          ...okJson('Uma página de sócios.', 'PartnersPage', partnersExample()),
          ...errorResponses(SEARCH_ERRORS),
        },
      },
    },
  };
}
