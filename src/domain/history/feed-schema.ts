// The schemas of the change feed (GET /api/v1/changes) and a company's history
// (GET /api/v1/brazilian_companies/{cnpj}/history): one source for the query reader, the TS types,
// /openapi.json and /docs. The attribute filters are the company search's own parameters
// (COMPANY_FILTER_PARAMETERS: same values, same sentences), those that apply to a change.
import { Type, type Static } from '@sinclair/typebox';
import { PAGING_PARAMETERS, pageSchema } from '../company/list-schema.ts';
import { COMPANY_FILTER_PARAMETERS } from '../search/query-schema.ts';
import type { FeedFilters } from './feed-filters.ts';
import { CAMPOS, TIPOS } from './kinds.ts';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const P = COMPANY_FILTER_PARAMETERS;

/** The search filters that apply to a change: attributes of the CNPJ shown (docs/history.md). */
const ATTRIBUTE_FILTERS = {
  uf: P.uf,
  municipio: P.municipio,
  cnae: P.cnae,
  situacao_cadastral: P.situacao_cadastral,
  matriz_filial: P.matriz_filial,
  natureza_juridica: P.natureza_juridica,
  porte: P.porte,
  opc_simples: P.opc_simples,
  opc_mei: P.opc_mei,
  // Since history layout 3 (a month recorded before answers 400 for these: feed.ts V3_FILTERS).
  q: P.q,
  cep: P.cep,
  cnae_secundario: P.cnae_secundario,
  has_email: P.has_email,
  has_telefone: P.has_telefone,
  inicio_atividade_min: P.inicio_atividade_min,
  inicio_atividade_max: P.inicio_atividade_max,
  capital_social_min: P.capital_social_min,
  capital_social_max: P.capital_social_max,
};

export const ChangesQuerySchema = Type.Object(
  {
    month: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$',
        'x-allowed': 'um mês no formato AAAA-MM',
        description:
          'O mês das mudanças (AAAA-MM): o que mudou da base do mês anterior para a deste mês. Padrão: o mês mais recente registrado.',
      }),
    ),
    tipo: Type.Optional(
      Type.Array(literals(TIPOS), {
        maxItems: 3,
        description:
          'Tipos de mudança separados por vírgula: abertura (CNPJ novo), encerramento (CNPJ que saiu da base), alteracao (um campo mudou).',
      }),
    ),
    campo: Type.Optional(
      Type.Array(literals(CAMPOS), {
        maxItems: CAMPOS.length,
        description:
          'Campos alterados, separados por vírgula, com os nomes da resposta da consulta por CNPJ (situacao_cadastral, municipio, razao_social, socios, ...). Só alterações têm campo.',
      }),
    ),
    ...ATTRIBUTE_FILTERS,
    ...PAGING_PARAMETERS,
  },
  { additionalProperties: false },
);
export type ChangesQuery = Static<typeof ChangesQuerySchema>;

export const ChangeItemSchema = Type.Object(
  {
    cnpj: Type.String({
      description:
        'CNPJ de 14 caracteres. Uma mudança da empresa (razão social, natureza jurídica, capital, porte, Simples/MEI, sócios) aparece sob o CNPJ da matriz.',
    }),
    tipo: literals(TIPOS),
    campo: Type.Optional(
      Type.String({ description: 'O campo alterado, com o nome da resposta da consulta por CNPJ; só em alteracao.' }),
    ),
    antes: Type.Optional(
      Type.Unknown({
        description:
          'O valor como a consulta o mostrava no mês anterior; só em alteracao. Em socios: os sócios que saíram.',
      }),
    ),
    depois: Type.Optional(
      Type.Unknown({
        description: 'O valor como a consulta o mostra neste mês; só em alteracao. Em socios: os sócios que entraram.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Uma mudança registrada.' },
);

export const ChangesPageSchema = Type.Object(
  {
    month: Type.String({ description: 'O mês das mudanças (AAAA-MM).' }),
    ...pageSchema(
      ChangeItemSchema,
      'Mudanças do mês em ordem de CNPJ e campo. Uma página pode vir com menos itens que limit e ainda ter next_cursor: continue até next_cursor ser null.',
    ).properties,
  },
  { additionalProperties: false },
);
export type ChangesPage = Static<typeof ChangesPageSchema>;

export const HistoryQuerySchema = Type.Object({}, { additionalProperties: false });

export const CompanyHistorySchema = Type.Object(
  {
    cnpj: Type.String({ description: 'O CNPJ consultado (14 caracteres).' }),
    data: Type.Array(
      Type.Composite(
        [Type.Object({ month: Type.String({ description: 'O mês da mudança (AAAA-MM).' }) }), ChangeItemSchema],
        { additionalProperties: false },
      ),
      {
        description:
          'Cada mudança registrada do estabelecimento e da sua empresa, o mês mais recente primeiro (no mesmo mês, por campo). Vazia quando nada mudou desde o primeiro mês registrado.',
      },
    ),
  },
  { additionalProperties: false },
);
export type CompanyHistory = Static<typeof CompanyHistorySchema>;

/** The reader's values → the feed's filters (a município of 1–4 digits is the dump's code, as in the search). */
export function toFeedFilters(v: ChangesQuery): FeedFilters {
  const { month: _m, limit: _l, cursor: _c, municipio, ...rest } = v;
  const f: FeedFilters = { ...rest } as FeedFilters;
  if (municipio)
    (f as { municipio?: (number | string)[] }).municipio = municipio.map((m) => (/^\d{1,4}$/.test(m) ? Number(m) : m));
  return f;
}

/** The cursor's scope: the month and every filter, in a fixed order (another listing's cursor fails). */
export function feedScope(month: string, f: FeedFilters): string {
  const keys = Object.keys(f).sort() as (keyof FeedFilters)[];
  return `changes ${month} ${JSON.stringify(keys.filter((k) => f[k] !== undefined).map((k) => [k, f[k]]))}`;
}
