// /openapi.json, generated from the TypeBox schemas and the error table (OpenAPI 3.1 takes
// JSON Schema as is, so the schemas are embedded without translation); and the order of /docs,
// with the page text of the operations written here (docs-page.ts).
import { CompanyResponseSchema, ErrorSchema, StatusSchema } from '../../domain/company/schema.ts';
import { exampleResponse } from '../../domain/company/example.ts';
import { BatchRequestSchema, BatchResponseSchema, EstablishmentsPageSchema } from '../../domain/company/list-schema.ts';
import { ERRORS } from '../../domain/api-errors.ts';
import { lookupCurl } from './examples.ts';
import { BATCH_SECTION, ESTABLISHMENTS_SECTION, listPaths } from './openapi-lists.ts';
import { CHANGES_SCHEMAS, CHANGES_SECTION, changesPaths } from './openapi-changes.ts';
import { COUNT_SECTION, PARTNERS_SECTION, SEARCH_SECTION, SUGGEST_SECTION, searchPaths } from './openapi-search.ts';
import { WATCHLIST_SCHEMAS, WATCHLIST_SECTION, watchlistPaths } from './openapi-watchlist.ts';
import { COMPAT_SCHEMAS, COMPAT_SECTION, compatPaths } from './openapi-compat.ts';
import {
  CompanySearchPageSchema,
  CountResponseSchema,
  PartnersPageSchema,
  SuggestResponseSchema,
} from '../../domain/search/query-schema.ts';
import { COMMON_ERRORS, curlSample, errorResponses, okJson, plain, REGISTRY_HEADERS } from './openapi-parts.ts';
import { EXAMPLE_CNPJ, EXAMPLE_CNPJ_PRETTY } from '../../domain/cnpj.ts';
import { html } from '../web/html.ts';
import { docsTable } from './docs-parts.ts';
import type { PageCards, PageSection } from './docs-page.ts';

const API_DESCRIPTION =
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
        SuggestResponse: plain(SuggestResponseSchema),
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

/** The page's account of the two security schemes above. */
const AUTH_SECTION: PageSection = {
  id: 'autenticacao',
  title: 'Autenticação',
  text: () => html`<p>Crie um token na área <strong>API de CNPJ</strong>, botão <strong>Gerenciar Tokens da API</strong>. O token é mostrado uma única vez.</p>
<ul>
<li>Recomendado: cabeçalho <code>Authorization: Bearer &lt;token&gt;</code>.</li>
<li>Alternativa: parâmetro <code>?api_token=&lt;token&gt;</code> (menos seguro: a URL pode ficar em logs). Se os dois forem enviados, vale o cabeçalho.</li>
</ul>`,
};

const LOOKUP_SECTION: PageSection = {
  id: 'consultar',
  title: 'Consultar uma empresa',
  subsections: [
    { id: 'resposta', title: 'Resposta' },
    { id: 'campos-company', title: 'company', code: true },
    { id: 'campos-socios', title: 'socios[]', code: true },
    { id: 'campos-contatos-extras', title: 'contatos_extras[]', code: true },
    { id: 'exemplo', title: 'Exemplo' },
  ],
  text: ({ op, h3 }) => {
    const lookup = op('getCompany');
    return html`<p><code>${lookup.route()}</code>: <code>cnpj</code> com 14 caracteres sem pontuação
(letras A–Z nas 12 primeiras posições são aceitas, para os CNPJs alfanuméricos; minúsculas viram maiúsculas; pontuação é aceita por conveniência).</p>
${lookup.curl()}
<p>Respostas 200 e 404 contam uma consulta na cota mensal do plano; CNPJ inválido (400) e falhas de autenticação não contam.
Toda resposta autenticada traz <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> e <code>X-RateLimit-Reset</code>;
a resposta 429 traz também <code>Retry-After</code> (segundos). Toda resposta com dados do cadastro (consultas, buscas,
contagens, sócios, mudanças, históricos e os formatos compatíveis) traz <code>X-Registry-Month</code> (o mês dos dados, AAAA-MM)
e <code>X-Registry-Release</code> (a versão publicada desses dados): servidores que respondem com o mesmo valor respondem com os mesmos dados.</p>

${h3('resposta')}
<p>Objeto com <code>company</code>, <code>socios</code> e <code>contatos_extras</code>.</p>
${h3('campos-company')}
${lookup.fields('company')}
${h3('campos-socios')}
${lookup.fields('socios')}
${h3('campos-contatos-extras')}
${lookup.fields('contatos_extras')}

${h3('exemplo')}
${lookup.example()}`;
  },
};

/** The page's form of x-errors: the whole error table, with each message. */
const ERRORS_SECTION: PageSection = {
  id: 'erros',
  title: 'Erros',
  text: () => html`<p>Toda resposta de erro é JSON: <code>{"error": "&lt;código&gt;", "message": "&lt;frase em português&gt;"}</code>.</p>
${docsTable(
  ['Status', 'error', 'Quando', 'message'],
  Object.values(ERRORS).map((e) => [e.status, html`<code>${e.error}</code>`, e.when, e.message]),
)}`,
};

const OTHER_ROUTES_SECTION: PageSection = {
  id: 'outras-rotas',
  title: 'Outras rotas',
  text: ({ op }) => {
    const [health, ready, status] = ['healthz', 'readyz', 'getStatus'].map((id) => {
      const o = op(id);
      return html`<code>${o.method} ${o.path}</code>`;
    });
    return html`<ul>
<li>${health}: 200 quando o processo está no ar.</li>
<li>${ready}: 200 quando este servidor pode atender (base carregada, banco de contas respondendo); senão 503 <code>not_ready</code> com <code>Retry-After</code>.</li>
<li>${status}: mês da base carregada, data da importação e contagem de linhas (sem token).</li>
</ul>`;
  },
};

/** /docs in order, card by card. */
export const DOCS_PAGE: PageCards = [
  [AUTH_SECTION],
  [LOOKUP_SECTION],
  [SEARCH_SECTION],
  [SUGGEST_SECTION],
  [COUNT_SECTION],
  [PARTNERS_SECTION],
  [ESTABLISHMENTS_SECTION],
  [BATCH_SECTION],
  [CHANGES_SECTION, WATCHLIST_SECTION],
  [COMPAT_SECTION],
  [ERRORS_SECTION],
  [OTHER_ROUTES_SECTION],
];
