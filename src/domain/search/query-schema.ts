// The query parameters of the company search, its count and the partner search (issue #14): one
// source for the query reader (server/http/query-params.ts: a comma gives OR within one
// parameter), /openapi.json and /docs. Descriptions in Portuguese, shown to API clients as they
// are. `toCompanyFilters` maps the reader's values onto the engine's CompanyFilters; the engine
// still checks what it uses (InvalidFilter names the parameter).
import { Type, type Static } from '@sinclair/typebox';
import { PAGING_PARAMETERS, pageSchema } from '../company/list-schema.ts';
import { CompanySchema, SocioSchema } from '../company/schema.ts';
import type { CompanyFilters, Situacao } from './filters.ts';

const bool = (description: string) => Type.Optional(Type.Boolean({ description }));
const list = <T extends Parameters<typeof Type.Array>[0]>(item: T, description: string, maxItems = 50) =>
  Type.Optional(Type.Array(item, { maxItems, description }));
const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** The filters, shared by the search and the count (and their cursor's scope, in this order). */
export const COMPANY_FILTER_PARAMETERS = {
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Palavras da razão social e do nome fantasia, sem distinção de maiúsculas e acentos ("sao joao" encontra "SÃO JOÃO"). Cada palavra deve estar em um dos dois nomes; a última vale também como prefixo (2 caracteres ou mais).',
    }),
  ),
  uf: list(
    Type.String({ pattern: '^[A-Za-z]{2}$', 'x-allowed': 'uma sigla de UF de 2 letras' }),
    'UFs separadas por vírgula (SP,RJ).',
    27,
  ),
  municipio: list(
    Type.String({
      minLength: 1,
      maxLength: 80,
      'x-allowed': 'o código de 4 dígitos do município na base da Receita, ou o nome do município',
    }),
    'Municípios: o código de 4 dígitos da Receita (7107) ou o nome, sem distinção de acentos (use com uf para nomes repetidos em outros estados).',
  ),
  cep: list(
    Type.String({ pattern: '^[0-9]{2,8}$', 'x-allowed': 'um prefixo de CEP de 2 a 8 dígitos' }),
    'Prefixos de CEP de 2 a 8 dígitos.',
  ),
  cnae: list(
    Type.String({ pattern: '^[0-9]{2,7}$', 'x-allowed': 'um prefixo de CNAE de 2 a 7 dígitos' }),
    'Prefixos do CNAE principal, de 2 a 7 dígitos (divisão, grupo, classe, subclasse).',
  ),
  cnae_secundario: bool('true: cnae também encontra as atividades secundárias.'),
  situacao_cadastral: list(
    literals(['ativa', 'inapta', 'suspensa', 'baixada', 'nula'] as const),
    'Situações cadastrais: ativa, inapta, suspensa, baixada, nula.',
    5,
  ),
  matriz_filial: Type.Optional(
    Type.Union([Type.Literal('matriz'), Type.Literal('filial')], { description: 'matriz ou filial.' }),
  ),
  natureza_juridica: list(
    Type.Integer({ minimum: 0, maximum: 9999 }),
    'Códigos de natureza jurídica de 4 dígitos (2062).',
  ),
  porte: list(
    Type.Integer({ minimum: 0, maximum: 5 }),
    'Códigos de porte da base da Receita: 00 (não informado), 01 (micro empresa), 03 (pequeno porte), 05 (demais).',
    4,
  ),
  opc_simples: bool('Optante pelo Simples Nacional (true ou false).'),
  opc_mei: bool('Optante pelo MEI (true ou false).'),
  has_email: bool('Tem e-mail na base (true ou false).'),
  has_telefone: bool('Tem telefone na base (true ou false).'),
  inicio_atividade_min: Type.Optional(
    Type.String({ format: 'date', description: 'Início de atividade a partir desta data (AAAA-MM-DD), inclusive.' }),
  ),
  inicio_atividade_max: Type.Optional(
    Type.String({ format: 'date', description: 'Início de atividade até esta data (AAAA-MM-DD), inclusive.' }),
  ),
  capital_social_min: Type.Optional(
    Type.Number({
      minimum: 0,
      description: 'Capital social mínimo, em reais, inclusive (ponto como separador decimal).',
    }),
  ),
  capital_social_max: Type.Optional(
    Type.Number({ minimum: 0, description: 'Capital social máximo, em reais, inclusive.' }),
  ),
};

/** The order and grouping of a company search (issue #46; docs/search.md "Relevance"). */
export const ORDER_PARAMETERS = {
  order: Type.Optional(
    Type.Union([Type.Literal('relevance'), Type.Literal('cnpj')], {
      description:
        'Com q: relevance (padrão) traz primeiro o nome igual ao buscado, depois os que têm todas as palavras, e por fim os encontrados com correção (letra trocada, palavras juntas ou separadas); cnpj mantém a ordem de CNPJ, sem correções, para percorrer tudo. Sem q a ordem é sempre a de CNPJ.',
    }),
  ),
  group: Type.Optional(
    Type.Literal('company', {
      description:
        'company: um item por empresa (raiz do CNPJ), o da matriz quando ela é encontrada, com estabelecimentos_encontrados (quantos estabelecimentos da empresa a busca encontra). Só com q na ordem relevance.',
    }),
  ),
};

export const CompanySearchQuerySchema = Type.Object(
  {
    ...COMPANY_FILTER_PARAMETERS,
    ...ORDER_PARAMETERS,
    ...PAGING_PARAMETERS,
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], {
        description:
          'json (padrão) ou csv: a mesma página em CSV para planilhas (UTF-8 com BOM, separador ";", linha de cabeçalho), com o cursor da próxima página no cabeçalho X-Next-Cursor (ausente na última). O cursor vale nos dois formatos.',
      }),
    ),
  },
  { additionalProperties: false },
);
export const CompanyCountQuerySchema = Type.Object(COMPANY_FILTER_PARAMETERS, { additionalProperties: false });

export const CountResponseSchema = Type.Object(
  {
    count: Type.Integer({ minimum: 0, description: 'Quantos estabelecimentos atendem a todos os filtros.' }),
    exact: Type.Boolean({
      description:
        'true quando a contagem é exata; com q, a contagem pode parar num limite e responder false (count é então um mínimo).',
    }),
  },
  { additionalProperties: false },
);

export type CompanyFilterValues = Static<typeof CompanyCountQuerySchema>;

/** The reader's values → the engine's filters, in the schema's order (the cursor's scope relies on it). */
export function toCompanyFilters(v: CompanyFilterValues): CompanyFilters {
  const f: Record<string, unknown> = {};
  for (const name of Object.keys(COMPANY_FILTER_PARAMETERS) as (keyof CompanyFilterValues)[]) {
    const value = v[name];
    if (value === undefined) continue;
    // A município of digits is the dump's code; anything else is a name.
    f[name] = name === 'municipio' ? (value as string[]).map((m) => (/^\d{1,4}$/.test(m) ? Number(m) : m)) : value;
  }
  return f as CompanyFilters & { situacao_cadastral?: Situacao[] };
}

export const PartnerSearchQuerySchema = Type.Object(
  {
    nome: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'Palavras do nome do sócio, com as regras de q: sem distinção de maiúsculas e acentos, a última também como prefixo.',
      }),
    ),
    cnpj_cpf: Type.Optional(
      Type.String({
        maxLength: 20,
        description:
          'O CNPJ de um sócio pessoa jurídica, o CPF mascarado como a Receita o publica (***123456**), ou um CPF completo (valem os seis dígitos do meio, os únicos publicados).',
      }),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal('relevance'), Type.Literal('table')], {
        description:
          'Com nome: relevance (padrão) traz primeiro os sócios cujo nome é exatamente o buscado (em qualquer ordem das palavras, sem contar conectivos), depois os demais que têm todas as palavras; table mantém a ordem da tabela de sócios da Receita, para percorrer tudo. Sem nome a ordem é sempre a da tabela.',
      }),
    ),
    ...PAGING_PARAMETERS,
  },
  { additionalProperties: false },
);

export const PartnerCompanySchema = Type.Object(
  {
    cnpj: Type.Union([Type.String(), Type.Null()], {
      description: 'CNPJ da matriz (ou do primeiro estabelecimento, se nenhum é matriz); null sem estabelecimentos.',
    }),
    razao_social: Type.String(),
    situacao_cadastral: Type.String({ description: 'Situação cadastral da matriz.' }),
    uf: Type.String(),
    municipio: Type.String(),
  },
  { additionalProperties: false, description: 'A empresa da qual a pessoa é sócia (dados da matriz).' },
);

export const PartnerHitSchema = Type.Composite([SocioSchema, Type.Object({ company: PartnerCompanySchema })], {
  additionalProperties: false,
  description: 'Um sócio em uma empresa.',
});

/** An item of a grouped search: the company object and how many of its establishments were found. */
export const GroupedCompanySchema = Type.Composite([
  CompanySchema,
  Type.Object({
    estabelecimentos_encontrados: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Só com group=company: quantos estabelecimentos desta empresa (raiz do CNPJ) a busca encontra.',
      }),
    ),
  }),
]);

export const CompanySearchPageSchema = pageSchema(
  GroupedCompanySchema,
  'Estabelecimentos que atendem a todos os filtros: com q, na ordem de relevância (veja order); sem q ou com order=cnpj, em ordem de CNPJ. Cada item é o objeto company da consulta por CNPJ. Uma página pode vir com menos itens que limit e ainda ter next_cursor: continue até next_cursor ser null.',
);

/** GET /api/v1/brazilian_companies/suggest: a name being typed, and the filters that may narrow it. */
export const SuggestQuerySchema = Type.Object(
  {
    ...COMPANY_FILTER_PARAMETERS,
    q: Type.String({
      minLength: 1,
      maxLength: 200,
      'x-allowed': 'um texto de 1 a 200 caracteres',
      description:
        'O nome sendo digitado: a última palavra vale como prefixo, as outras com as mesmas tolerâncias da busca (acentos, letra trocada, palavras juntas ou separadas, forma jurídica).',
    }),
    limit: Type.Integer({ minimum: 1, maximum: 20, default: 10, description: 'Sugestões, de 1 a 20 (padrão 10).' }),
  },
  { additionalProperties: false },
);

const suggested = (description: string) =>
  Type.String({ description: `${description} Texto vazio ("") quando a Receita não informa.` });
export const SuggestionSchema = Type.Object(
  {
    cnpj: Type.String({ description: 'CNPJ do estabelecimento sugerido (a matriz quando encontrada), 14 caracteres.' }),
    razao_social: suggested('Razão social.'),
    nome_fantasia: suggested('Nome fantasia do estabelecimento.'),
    uf: suggested('UF, 2 letras.'),
    municipio: suggested('Nome do município.'),
    situacao_cadastral: suggested('Situação cadastral: NULA, ATIVA, SUSPENSA, INAPTA ou BAIXADA.'),
  },
  { additionalProperties: false },
);
export const SuggestResponseSchema = Type.Object(
  {
    data: Type.Array(SuggestionSchema, {
      description:
        'Até limit empresas, uma por raiz do CNPJ, a melhor primeiro. Contada como uma chamada, como a busca.',
    }),
  },
  { additionalProperties: false },
);
export const PartnersPageSchema = pageSchema(
  PartnerHitSchema,
  'Uma linha por sócio em cada empresa, na ordem da tabela de sócios da Receita.',
);
export type CompanySearchPage = Static<typeof CompanySearchPageSchema>;
export type PartnersPage = Static<typeof PartnersPageSchema>;
export type SuggestResponse = Static<typeof SuggestResponseSchema>;
