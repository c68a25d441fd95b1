// The /openapi.json operations of the routes that answer many companies: a company's
// establishments and the batch lookup (the search adds its own beside them).
import { BatchRequestSchema, EstablishmentsQuerySchema } from '../../domain/company/list-schema.ts';
import {
  BATCH_EXAMPLE_REQUEST,
  batchCurl,
  batchExample,
  establishmentsCurl,
  establishmentsExample,
} from './examples.ts';
import { COMMON_ERRORS, curlSample, errorResponses, okJson, queryParameters } from './openapi-parts.ts';
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';

const CNPJ_PARAMETER = {
  name: 'cnpj',
  in: 'path',
  required: true,
  description:
    'Qualquer CNPJ da empresa (14 caracteres, com ou sem pontuação): a listagem é a da raiz, os 8 primeiros caracteres.',
  schema: { type: 'string', examples: [EXAMPLE_CNPJ] },
};

export function listPaths(baseUrl: string): Record<string, unknown> {
  return {
    '/api/v1/brazilian_companies/{cnpj}/establishments': {
      get: {
        operationId: 'listEstablishments',
        summary: 'Lista os estabelecimentos (matriz e filiais) de uma empresa',
        description:
          'Todos os estabelecimentos da raiz do CNPJ (8 primeiros caracteres): a matriz primeiro, depois os demais em ordem de CNPJ, ' +
          'em páginas de até 100 itens. Para a próxima página, repita a chamada com cursor=next_cursor (qualquer CNPJ da mesma empresa serve); ' +
          'next_cursor null indica a última página. Cada página conta uma consulta na cota (inclusive o 404 de um CNPJ que não está na base); ' +
          'erros de parâmetro (400) e de autenticação não contam.',
        parameters: [CNPJ_PARAMETER, ...queryParameters(EstablishmentsQuerySchema)],
        'x-codeSamples': curlSample(establishmentsCurl(baseUrl)),
        responses: {
          ...okJson('Uma página de estabelecimentos.', 'EstablishmentsPage', establishmentsExample()),
          ...errorResponses([...COMMON_ERRORS, 'invalid_cnpj', 'invalid_parameter', 'not_found']),
        },
      },
    },
    '/api/v1/brazilian_companies/batch': {
      post: {
        operationId: 'batchCompanies',
        summary: 'Consulta até 1.000 CNPJs de uma vez',
        description:
          'Cada item de cnpjs é respondido como a consulta por CNPJ o seria (200 com a resposta completa, 404 ou 400), na ordem enviada. ' +
          'Conta uma consulta por CNPJ válido distinto (encontrado ou não; repetidos contam uma vez, inválidos não contam), reservadas de uma só vez: ' +
          'se restarem menos consultas do que o lote precisa, a resposta é 429 e nada é respondido nem contado. ' +
          'Corpo JSON de até 64 KB com Content-Type: application/json.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/BatchRequest' },
              example: BATCH_EXAMPLE_REQUEST,
            },
          },
        },
        'x-codeSamples': curlSample(batchCurl(baseUrl)),
        responses: {
          ...okJson('Uma resposta por CNPJ enviado, na mesma ordem.', 'BatchResponse', batchExample()),
          ...errorResponses([
            ...COMMON_ERRORS,
            'invalid_body',
            'body_too_large',
            'request_too_large',
            'unsupported_media_type',
          ]),
        },
      },
    },
  };
}

export { BatchRequestSchema };
