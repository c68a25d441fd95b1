// /openapi.json, generated from the TypeBox schemas and the error table (OpenAPI 3.1 takes
// JSON Schema as is, so the schemas are embedded without translation).
import { CompanyResponseSchema, ErrorSchema, StatusSchema } from '../../domain/company/schema.ts';
import { exampleResponse } from '../../domain/company/example.ts';
import { BatchRequestSchema, BatchResponseSchema, EstablishmentsPageSchema } from '../../domain/company/list-schema.ts';
import { ERRORS } from '../../domain/api-errors.ts';
import { lookupCurl } from './examples.ts';
import { listPaths } from './openapi-lists.ts';
import { CHANGES_SCHEMAS, changesPaths } from './openapi-changes.ts';
import { searchPaths } from './openapi-search.ts';
import { WATCHLIST_SCHEMAS, watchlistPaths } from './openapi-watchlist.ts';
import { COMPAT_SCHEMAS, compatPaths } from './openapi-compat.ts';
import { CompanySearchPageSchema, CountResponseSchema, PartnersPageSchema } from '../../domain/search/query-schema.ts';
import { COMMON_ERRORS, curlSample, errorResponses, okJson, plain, REGISTRY_HEADERS } from './openapi-parts.ts';
import { EXAMPLE_CNPJ, EXAMPLE_CNPJ_PRETTY } from '../../domain/cnpj.ts';

export const API_DESCRIPTION =
  'API de consulta de CNPJ: dados cadastrais públicos da Receita Federal (empresa, estabelecimento, sócios), ' +
  'autenticada por token. Os campos seguem a nomenclatura do cadastro nacional. Campos de texto são sempre strings ' +
  '("" quando a Receita não informa); datas são "AAAA-MM-DD" ou null; listas vazias são []. Os campos ' +
  'regime_tributario, ano_regime_tributario, escrituracoes_regime_tributario e numero_funcionarios são omitidos ' +
  'quando não há dados. Toda resposta autenticada traz X-RateLimit-Limit, X-RateLimit-Remaining e X-RateLimit-Reset ' +
  '(segundos desde 1970 do início do próximo mês, horário de Brasília). Toda resposta com dados do cadastro ' +
  'traz X-Registry-Month (o mês dos dados, AAAA-MM) e X-Registry-Release (a versão publicada desses dados).';

export function buildOpenApi(baseUrl: string): Record<string, unknown> {
  return withRegistryHeaders(document(baseUrl));
}

/** The operations that answer from the registry (snapshot or change history); the others carry no registry headers. */
const REGISTRY_PATH =
  /^\/(api\/v1\/(brazilian_companies|partners|changes|status)|api\/cnpj\/|minha-receita\/|opencnpj\/|v1\/cnpj\/|t\/)/;

/** Adds X-Registry-Month and X-Registry-Release to the answers of registry operations that read it (2xx, 404). */
function withRegistryHeaders(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = doc.paths as Record<string, Record<string, { responses?: Record<string, { headers?: object }> }>>;
  for (const [p, ops] of Object.entries(paths)) {
    if (!REGISTRY_PATH.test(p)) continue;
    for (const op of Object.values(ops))
      for (const [status, answer] of Object.entries(op.responses ?? {}))
        if (/^(2\d\d|404)$/.test(status)) answer.headers = { ...answer.headers, ...REGISTRY_HEADERS };
  }
  return doc;
}

function document(baseUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'cnpj-api', version: '1.0.0', description: API_DESCRIPTION },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }, { apiToken: [] }],
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Recomendado: Authorization: Bearer <token>. Tem precedência sobre api_token.',
        },
        apiToken: {
          type: 'apiKey',
          in: 'query',
          name: 'api_token',
          description: 'Alternativa menos segura: o token pode aparecer em logs.',
        },
      },
      schemas: {
        CompanyResponse: plain(CompanyResponseSchema),
        CompanySearchPage: plain(CompanySearchPageSchema),
        CountResponse: plain(CountResponseSchema),
        PartnersPage: plain(PartnersPageSchema),
        EstablishmentsPage: plain(EstablishmentsPageSchema),
        BatchRequest: plain(BatchRequestSchema),
        BatchResponse: plain(BatchResponseSchema),
        ...WATCHLIST_SCHEMAS,
        Error: plain(ErrorSchema),
        Status: plain(StatusSchema),
        ...CHANGES_SCHEMAS,
        ...COMPAT_SCHEMAS,
      },
    },
    paths: {
      '/api/v1/brazilian_companies/{cnpj}/company': {
        get: {
          operationId: 'getCompany',
          summary: 'Consulta uma empresa pelo CNPJ',
          description:
            'Dados cadastrais do estabelecimento, da empresa, sócios e contatos extras. Respostas 200 e 404 contam na cota mensal; ' +
            'CNPJ inválido (400) e falhas de autenticação não contam.',
          parameters: [
            {
              name: 'cnpj',
              in: 'path',
              required: true,
              description:
                'CNPJ com 14 caracteres, sem pontuação (letras A–Z permitidas nas 12 primeiras posições a partir de julho de 2026). ' +
                `Minúsculas viram maiúsculas; pontuação (${EXAMPLE_CNPJ_PRETTY}) é aceita por conveniência.`,
              schema: { type: 'string', examples: [EXAMPLE_CNPJ] },
            },
          ],
          'x-codeSamples': curlSample(lookupCurl(baseUrl)),
          responses: {
            ...okJson('Empresa encontrada.', 'CompanyResponse', exampleResponse()),
            ...errorResponses([...COMMON_ERRORS, 'invalid_cnpj', 'not_found', 'route_not_found']),
          },
        },
      },
      ...searchPaths(baseUrl),
      ...listPaths(baseUrl),
      ...changesPaths(baseUrl),
      ...watchlistPaths(baseUrl),
      ...compatPaths(baseUrl),
      '/api/v1/status': {
        get: {
          operationId: 'getStatus',
          summary: 'Base carregada: mês, data da importação, contagens',
          security: [],
          responses: {
            '200': {
              description: 'Estado da base.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Status' } } },
            },
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'healthz',
          summary: 'O processo está no ar',
          security: [],
          responses: { '200': { description: 'OK' } },
        },
      },
      '/readyz': {
        get: {
          operationId: 'readyz',
          summary: 'Este servidor pode atender: base carregada e banco de contas respondendo',
          security: [],
          responses: { '200': { description: 'Pronto.' }, ...errorResponses(['not_ready']) },
        },
      },
    },
    // The whole error table in one place, for client generators and people.
    'x-errors': Object.values(ERRORS).map(({ status, error, when }) => ({ status, error, when })),
  };
}
