// The schemas of the routes that answer many companies: the establishments listing (and the
// search, which reuses the paging parameters and the page shape) and the batch lookup. One source
// for the TS types, the query reader (server/http/query-params.ts), /openapi.json and /docs;
// descriptions in Portuguese, shown to API clients as they are.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CompanyResponseSchema, CompanySchema } from './schema.ts';
import { EXAMPLE_CNPJ } from '../cnpj.ts';

/** The most CNPJs one batch takes. */
export const BATCH_MAX = 1000;

/** `limit` and `cursor`, as every paged listing takes them. */
export const PAGING_PARAMETERS = {
  limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Itens por página, de 1 a 100 (padrão 20).',
  }),
  cursor: Type.Optional(
    Type.String({
      description:
        'Para a página seguinte: o next_cursor da página anterior, como veio (texto opaco). Vale só para a mesma rota e os mesmos filtros; omita-o na primeira página.',
    }),
  ),
};

export const EstablishmentsQuerySchema = Type.Object(PAGING_PARAMETERS, { additionalProperties: false });

/** A page of a listing: the items and the cursor of the next page (null on the last). */
export const pageSchema = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      data: Type.Array(item, { description }),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Cursor da próxima página (passe-o no parâmetro cursor); null quando esta é a última.',
      }),
    },
    { additionalProperties: false },
  );

export const EstablishmentsPageSchema = pageSchema(
  CompanySchema,
  'Estabelecimentos da empresa (mesma raiz de 8 caracteres do CNPJ): a matriz primeiro, depois os demais em ordem de CNPJ. Cada item é o objeto company da consulta por CNPJ.',
);

export const BatchRequestSchema = Type.Object(
  {
    cnpjs: Type.Array(Type.String({ examples: [EXAMPLE_CNPJ] }), {
      minItems: 1,
      maxItems: BATCH_MAX,
      description: `De 1 a ${BATCH_MAX.toLocaleString('pt-BR')} CNPJs, com ou sem pontuação. Repetidos são respondidos em cada posição e contados uma vez.`,
    }),
  },
  { additionalProperties: false },
);

export const BatchItemSchema = Type.Union([
  Type.Object(
    {
      cnpj: Type.String({ description: 'O CNPJ normalizado (14 caracteres, sem pontuação).' }),
      status: Type.Literal(200),
      data: CompanyResponseSchema,
    },
    { additionalProperties: false, description: 'CNPJ encontrado: a mesma resposta da consulta por CNPJ.' },
  ),
  Type.Object(
    {
      cnpj: Type.String({ description: 'O CNPJ normalizado; para um CNPJ inválido (400), o texto como foi enviado.' }),
      status: Type.Union([Type.Literal(400), Type.Literal(404)]),
      error: Type.String({ description: 'invalid_cnpj (400, não conta) ou not_found (404, conta).' }),
      message: Type.String({ description: 'Frase em português para uma pessoa.' }),
    },
    { additionalProperties: false, description: 'CNPJ inválido (400) ou não encontrado (404).' },
  ),
]);

export const BatchResponseSchema = Type.Object(
  { results: Type.Array(BatchItemSchema, { description: 'Uma resposta por item de cnpjs, na mesma ordem.' }) },
  { additionalProperties: false },
);

export type BatchItem = Static<typeof BatchItemSchema>;
export type BatchResponse = Static<typeof BatchResponseSchema>;
export type EstablishmentsPage = Static<typeof EstablishmentsPageSchema>;
