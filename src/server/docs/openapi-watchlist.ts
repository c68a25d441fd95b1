// The /openapi.json operations of the watchlist (docs/watchlists.md).
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
