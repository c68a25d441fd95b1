// The /openapi.json operations of the watchlist (docs/watchlists.md), and their /docs section
// (docs-page.ts).
import type { ErrorKey } from '../../domain/api-errors.ts';
import {
  WatchlistAddRequestSchema,
  WatchlistAddResponseSchema,
  WatchlistPageSchema,
  WatchlistPutSchema,
  WatchlistQuerySchema,
} from '../../domain/watchlist/schema.ts';
import {
  WATCHLIST_ADD_EXAMPLE_REQUEST,
  watchlistAddCurl,
  watchlistAddExample,
  watchlistDeleteCurl,
  watchlistListCurl,
  watchlistPageExample,
  watchlistPutCurl,
  watchlistPutExample,
} from './examples-watchlist.ts';
import {
  COMMON_ERRORS,
  RATE_HEADERS,
  curlSample,
  errorResponses,
  okJson,
  plain,
  queryParameters,
} from './openapi-parts.ts';
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';
import { html } from '../web/html.ts';
import type { PageSection } from './docs-page.ts';

/** The watchlist needs no snapshot: no registry_unavailable. */
const ERRORS_OF: readonly ErrorKey[] = COMMON_ERRORS.filter((k) => k !== 'registry_unavailable');

const CNPJ_PARAMETER = {
  name: 'cnpj',
  in: 'path',
  required: true,
  description: 'CNPJ com 14 caracteres, com ou sem pontuação. Basta ser válido: não precisa estar na base carregada.',
  schema: { type: 'string', examples: [EXAMPLE_CNPJ] },
};

export const WATCHLIST_SCHEMAS = {
  WatchlistPage: plain(WatchlistPageSchema),
  WatchlistPut: plain(WatchlistPutSchema),
  WatchlistAddRequest: plain(WatchlistAddRequestSchema),
  WatchlistAddResponse: plain(WatchlistAddResponseSchema),
};

const COUNTS =
  'Cada requisição conta uma consulta na cota mensal; erros de CNPJ, parâmetro ou corpo (400, 413, 415) e de autenticação não contam.';

export function watchlistPaths(baseUrl: string): Record<string, unknown> {
  const put = okJson('O CNPJ já estava na lista (nada muda).', 'WatchlistPut', watchlistPutExample());
  return {
    '/api/v1/watchlist': {
      get: {
        operationId: 'listWatchlist',
        summary: 'Lista os CNPJs monitorados pela conta',
        description: `Em ordem de CNPJ, em páginas de até 1.000; total e watchlist_limit dizem quantos a conta monitora e quantos o plano permite. ${COUNTS}`,
        parameters: queryParameters(WatchlistQuerySchema),
        'x-codeSamples': curlSample(watchlistListCurl(baseUrl)),
        responses: {
          ...okJson('Uma página da lista.', 'WatchlistPage', watchlistPageExample()),
          ...errorResponses([...ERRORS_OF, 'invalid_parameter']),
        },
      },
      post: {
        operationId: 'addToWatchlist',
        summary: 'Adiciona até 1.000 CNPJs à lista de monitoramento',
        description:
          'Os CNPJs válidos entram todos juntos, ou nenhum (409 watchlist_limit_exceeded) se passarem do limite do plano; os inválidos são ' +
          `informados no item (400) e não entram. Uma resposta por item, na ordem enviada. ${COUNTS} Uma lista sem nenhum CNPJ válido não conta.`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/WatchlistAddRequest' },
              example: WATCHLIST_ADD_EXAMPLE_REQUEST,
            },
          },
        },
        'x-codeSamples': curlSample(watchlistAddCurl(baseUrl)),
        responses: {
          ...okJson('Uma resposta por CNPJ enviado, na mesma ordem.', 'WatchlistAddResponse', watchlistAddExample()),
          ...errorResponses([
            ...ERRORS_OF,
            'invalid_body',
            'body_too_large',
            'request_too_large',
            'unsupported_media_type',
            'watchlist_limit_exceeded',
          ]),
        },
      },
    },
    '/api/v1/watchlist/{cnpj}': {
      put: {
        operationId: 'watchCnpj',
        summary: 'Passa a monitorar um CNPJ',
        description: `201 quando o CNPJ entra na lista, 200 quando já estava; 409 quando o limite do plano foi atingido. ${COUNTS}`,
        parameters: [CNPJ_PARAMETER],
        'x-codeSamples': curlSample(watchlistPutCurl(baseUrl)),
        responses: {
          '201': { ...(put['200'] as object), description: 'O CNPJ entrou na lista.' },
          ...put,
          ...errorResponses([...ERRORS_OF, 'invalid_cnpj', 'watchlist_limit_exceeded']),
        },
      },
      delete: {
        operationId: 'unwatchCnpj',
        summary: 'Deixa de monitorar um CNPJ',
        description: `204 quando o CNPJ saiu da lista; 404 not_watched quando não estava nela. ${COUNTS}`,
        parameters: [CNPJ_PARAMETER],
        'x-codeSamples': curlSample(watchlistDeleteCurl(baseUrl)),
        responses: {
          '204': { description: 'Removido.', headers: RATE_HEADERS },
          ...errorResponses([...ERRORS_OF, 'invalid_cnpj', 'not_watched']),
        },
      },
    },
  };
}

export const WATCHLIST_SECTION: PageSection = {
  id: 'monitoramento',
  title: 'Monitoramento de CNPJs',
  text: ({ op }) => {
    const [put, del, list, add] = ['watchCnpj', 'unwatchCnpj', 'listWatchlist', 'addToWatchlist'].map(op);
    return html`<p>A conta monitora uma lista de CNPJs: a cada mês importado, as mudanças desses CNPJs (abertura, encerramento, alterações
de situação, endereço, sócios…) aparecem na área <strong>API de CNPJ</strong>, página <strong>Monitoramento</strong>. Basta o CNPJ ser
válido: ele não precisa estar na base carregada (um CNPJ que ainda vai abrir, ou que já foi encerrado, pode ser monitorado). O plano
limita quantos CNPJs a conta monitora.</p>
<p><code>${put.route()}</code>: passa a monitorar o CNPJ (com ou sem pontuação). Responde 201 quando
ele entra na lista e 200 quando já estava, com <code>cnpj</code>, <code>added_at</code>, <code>total</code> e <code>watchlist_limit</code>.</p>
${put.curl()}
<p><code>${del.route()}</code>: deixa de monitorar. Responde 204 sem corpo, ou 404
<code>not_watched</code> quando o CNPJ não estava na lista.</p>
${del.curl()}
<p><code>${list.route()}</code>: a lista em ordem de CNPJ, em páginas. Para a página seguinte, repita a
chamada com <code>cursor</code> igual ao <code>next_cursor</code> recebido; <code>null</code> indica a última página.</p>
${list.curl()}
${list.parameters()}
${list.example()}
<p><code>${add.route()}</code>: adiciona até 1.000 CNPJs de uma vez, com o corpo
<code>{"cnpjs": [...]}</code> e o cabeçalho <code>Content-Type: application/json</code>. Os válidos entram todos juntos; os inválidos
são informados no item (400 <code>invalid_cnpj</code>) e não entram. A resposta traz um item por CNPJ enviado, na mesma ordem: 201
(entrou agora), 200 (já estava) ou 400.</p>
${add.curl()}
${add.example()}
<p><strong>Limite do plano:</strong> quando os CNPJs novos passariam do limite, nenhum entra e a resposta é 409
<code>watchlist_limit_exceeded</code>, com uma mensagem que diz quantas vagas restam.</p>
<p><strong>Cota:</strong> cada requisição conta uma consulta (também 404 e 409); CNPJ, parâmetro ou corpo inválidos (400, 413, 415) não
contam, nem uma lista sem nenhum CNPJ válido.</p>`;
  },
};
