// The /openapi.json operations of the routes that answer many companies: a company's
// establishments and the batch lookup (the search adds its own beside them); and their /docs
// sections (docs-page.ts).
import { BatchRequestSchema, EstablishmentsQuerySchema, type BatchResponse } from '../../domain/company/list-schema.ts';
import {
  BATCH_EXAMPLE_REQUEST,
  batchCurl,
  batchExample,
  establishmentsCurl,
  establishmentsExample,
} from './examples.ts';
import { COMMON_ERRORS, curlSample, errorResponses, okJson, queryParameters } from './openapi-parts.ts';
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';
import { html } from '../web/html.ts';
import type { PageSection } from './docs-page.ts';

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

export const ESTABLISHMENTS_SECTION: PageSection = {
  id: 'estabelecimentos',
  title: 'Estabelecimentos de uma empresa',
  text: ({ op }) => {
    const list = op('listEstablishments');
    return html`<p><code>${list.route()}</code>: todos os estabelecimentos da empresa,
isto é, da raiz do CNPJ (os 8 primeiros caracteres): a <strong>matriz primeiro</strong>, depois os demais em ordem de CNPJ.
Qualquer CNPJ da empresa serve; um CNPJ que não está na base responde 404.</p>
${list.curl()}
${list.parameters()}
<p>A resposta traz <code>data</code> (lista de objetos <code>company</code>, os mesmos da consulta por CNPJ, sem <code>socios</code>, que são
os mesmos para toda a empresa) e <code>next_cursor</code>. Para a página seguinte, repita a chamada com <code>cursor</code> igual ao
<code>next_cursor</code> recebido; <code>null</code> indica a última página. O cursor é opaco e vale só para a mesma empresa: um cursor
alterado ou de outra consulta responde 400 <code>invalid_parameter</code>.</p>
${list.nextPageCurl()}
<p><strong>Cota:</strong> cada página conta uma consulta (também o 404); parâmetros inválidos (400) não contam.</p>`;
  },
};

/** The batch example with its one full answer cut short: the other two items are the point. */
function shortBatch({ results: [found, ...rest] }: BatchResponse) {
  const short = { ...found, data: { company: { cnpj: found!.cnpj, '…': '…' }, socios: ['…'], contatos_extras: ['…'] } };
  return { results: [short, ...rest] };
}

export const BATCH_SECTION: PageSection = {
  id: 'lote',
  title: 'Consulta em lote',
  text: ({ op }) => {
    const batch = op('batchCompanies');
    return html`<p><code>${batch.route()}</code>: até 1.000 CNPJs numa só requisição, com
o corpo JSON <code>{"cnpjs": [...]}</code> (com ou sem pontuação) e o cabeçalho <code>Content-Type: application/json</code>; o corpo
pode ter até 64 KB.</p>
${batch.curl()}
<p>A resposta traz <code>results</code>: um item por CNPJ enviado, na mesma ordem, com <code>cnpj</code> (normalizado; o texto enviado
quando inválido) e <code>status</code>: 200 com <code>data</code> (a resposta completa da consulta por CNPJ), 404
<code>not_found</code> ou 400 <code>invalid_cnpj</code>, com <code>error</code> e <code>message</code>.</p>
${batch.example(shortBatch)}
<p><strong>Cota:</strong> conta uma consulta por CNPJ válido distinto, encontrado ou não (um CNPJ repetido é respondido em cada posição e
conta uma vez; inválidos não contam). As consultas do lote são reservadas de uma só vez: se restarem menos do que o lote precisa, a
resposta é 429 <code>quota_exceeded</code> e nenhum CNPJ é respondido nem contado. Corpo inválido: 400 <code>invalid_body</code>;
sem <code>Content-Type: application/json</code>: 415; acima de 64 KB: 413.</p>`;
  },
};
