// BrasilAPI's CNPJ answer (BrasilAPI/BrasilAPI @ 0104c49c, pages/api/cnpj/v1/[cnpj].js): the 200
// body is Minha Receita's object as is (minha-receita-schema.ts); errors are BrasilAPI's own
// envelope (middlewares/errorHandler.js: message, type, name, in that order).
import { Type, type Static } from '@sinclair/typebox';

export { MinhaReceitaCompanySchema as BrasilApiCompanySchema } from './minha-receita-schema.ts';

export const BrasilApiErrorSchema = Type.Object(
  {
    message: Type.String({ description: 'Mensagem em português (ex.: "CNPJ 123 inválido.").' }),
    type: Type.String({ description: 'Tipo do erro: bad_request, not_found, ou o código de erro desta API.' }),
    name: Type.String({ description: 'Nome do erro no estilo da BrasilAPI (BadRequestError, NotFoundError, ...).' }),
  },
  { additionalProperties: false, description: 'Erro no formato da BrasilAPI.' },
);

export type BrasilApiError = Static<typeof BrasilApiErrorSchema>;
