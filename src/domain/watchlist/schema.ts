// The watchlist routes' schemas: one source for the TS types, the query reader, /openapi.json and
// /docs; descriptions in Portuguese, shown to API clients as they are.
import { Type, type Static } from '@sinclair/typebox';
import { BATCH_MAX } from '../company/list-schema.ts';
import { EXAMPLE_CNPJ } from '../cnpj.ts';

/** The most CNPJs one POST adds, as the batch lookup takes. */
export const WATCHLIST_ADD_MAX = BATCH_MAX;

export const WatchlistQuerySchema = Type.Object(
  {
    limit: Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 100,
      description: 'Itens por página, de 1 a 1.000 (padrão 100).',
    }),
    cursor: Type.Optional(
      Type.String({
        description:
          'Para a página seguinte: o next_cursor da página anterior, como veio (texto opaco); omita-o na primeira página.',
      }),
    ),
  },
  { additionalProperties: false },
);

const cnpj = Type.String({
  description: 'O CNPJ normalizado (14 caracteres, sem pontuação).',
  examples: [EXAMPLE_CNPJ],
});
const addedAt = Type.String({
  description: 'Quando o CNPJ entrou na lista (ISO 8601, UTC).',
  examples: ['2026-11-20T15:00:00.000Z'],
});
const total = Type.Integer({ description: 'Quantos CNPJs a conta monitora agora.' });
const watchlistLimit = Type.Integer({ description: 'Quantos CNPJs o plano da conta permite monitorar.' });

export const WatchedSchema = Type.Object({ cnpj, added_at: addedAt }, { additionalProperties: false });

export const WatchlistPageSchema = Type.Object(
  {
    data: Type.Array(WatchedSchema, { description: 'CNPJs monitorados, em ordem de CNPJ.' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Cursor da próxima página (passe-o no parâmetro cursor); null quando esta é a última.',
    }),
    total,
    watchlist_limit: watchlistLimit,
  },
  { additionalProperties: false },
);

export const WatchlistPutSchema = Type.Object(
  { cnpj, added_at: addedAt, total, watchlist_limit: watchlistLimit },
  { additionalProperties: false },
);

export const WatchlistAddRequestSchema = Type.Object(
  {
    cnpjs: Type.Array(Type.String({ examples: [EXAMPLE_CNPJ] }), {
      minItems: 1,
      maxItems: WATCHLIST_ADD_MAX,
      description: `De 1 a ${WATCHLIST_ADD_MAX.toLocaleString('pt-BR')} CNPJs, com ou sem pontuação. Os válidos entram juntos, ou nenhum se passarem do limite do plano.`,
    }),
  },
  { additionalProperties: false },
);

export const WatchlistAddItemSchema = Type.Union([
  Type.Object(
    {
      cnpj,
      status: Type.Union([Type.Literal(201), Type.Literal(200)], {
        description: '201: entrou agora na lista; 200: já estava (ou repetido mais acima na mesma lista).',
      }),
      added_at: addedAt,
    },
    { additionalProperties: false, description: 'CNPJ válido, monitorado.' },
  ),
  Type.Object(
    {
      cnpj: Type.String({ description: 'O texto como foi enviado.' }),
      status: Type.Literal(400),
      error: Type.Literal('invalid_cnpj'),
      message: Type.String({ description: 'Frase em português para uma pessoa.' }),
    },
    { additionalProperties: false, description: 'CNPJ inválido: não entra na lista.' },
  ),
]);

export const WatchlistAddResponseSchema = Type.Object(
  {
    results: Type.Array(WatchlistAddItemSchema, { description: 'Uma resposta por item de cnpjs, na mesma ordem.' }),
    added: Type.Integer({ description: 'Quantos CNPJs entraram agora na lista.' }),
    total,
    watchlist_limit: watchlistLimit,
  },
  { additionalProperties: false },
);

export type WatchlistPage = Static<typeof WatchlistPageSchema>;
export type WatchlistPut = Static<typeof WatchlistPutSchema>;
export type WatchlistAddItem = Static<typeof WatchlistAddItemSchema>;
export type WatchlistAddResponse = Static<typeof WatchlistAddResponseSchema>;
