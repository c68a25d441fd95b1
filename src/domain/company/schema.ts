// The lookup response and the error body as TypeBox schemas: the one source for the TS types
// (Static<>), /openapi.json and the /docs page. Descriptions are Portuguese because they are
// shown to API clients as they are.
import { Type, type Static } from '@sinclair/typebox';
import { EXAMPLE_CNPJ, EXAMPLE_CNPJ_PRETTY } from '../cnpj.ts';

const Text = (description: string, extra: Record<string, unknown> = {}) =>
  Type.String({ description: `${description} Texto vazio ("") quando a Receita não informa.`, ...extra });
const DateOrNull = (description: string) =>
  Type.Union([Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()], {
    description: `${description} Formato AAAA-MM-DD; null quando ausente ou inválida na base.`,
  });

export const CompanySchema = Type.Object(
  {
    cnpj: Type.String({
      description: 'CNPJ com 14 caracteres, sem pontuação.',
      pattern: '^[0-9A-Z]{12}[0-9]{2}$',
      examples: [EXAMPLE_CNPJ],
    }),
    cnpj_pretty: Type.String({ description: 'CNPJ formatado: NN.NNN.NNN/NNNN-NN.', examples: [EXAMPLE_CNPJ_PRETTY] }),
    razao_social: Text('Razão social (nome empresarial), com espaços repetidos removidos.'),
    nome_fantasia: Text('Nome fantasia do estabelecimento.'),
    situacao_cadastral: Text('Situação cadastral: NULA, ATIVA, SUSPENSA, INAPTA ou BAIXADA.', {
      examples: ['ATIVA'],
    }),
    matriz_filial: Text('MATRIZ ou FILIAL.'),
    cnae_fiscal: Text('CNAE fiscal principal, 7 dígitos.', { examples: ['6204000'] }),
    cnae_fiscal_human: Text(
      'CNAE principal formatado com a descrição; cortado em 100 caracteres terminando em "..." quando mais longo.',
      { examples: ['6204-0/00 - Consultoria em tecnologia da informação'] },
    ),
    cnaes_secundarios: Type.Array(Type.Integer(), {
      description: 'Códigos CNAE secundários (inteiros); [] quando não há.',
    }),
    cnaes_secundarios_human: Text('CNAEs secundários formatados com a descrição, separados por "; ".'),
    data_inicio_atividade: DateOrNull('Data de início da atividade.'),
    natureza_juridica: Text('Natureza jurídica (descrição; o código quando a tabela da Receita não o traz).', {
      examples: ['Empresa Pública'],
    }),
    capital_social: Text('Capital social exato em texto decimal, duas casas, separador ".".', {
      examples: ['1061004829.23'],
    }),
    tipo_logradouro: Text('Tipo de logradouro (RUA, AVENIDA, ...).'),
    logradouro: Text('Logradouro.'),
    numero: Text('Número (S/N quando sem número).'),
    complemento: Text('Complemento do endereço.'),
    bairro: Text('Bairro.'),
    cep: Text('CEP, 8 dígitos sem pontuação.'),
    municipio: Text('Nome do município (tabela de municípios da Receita; o código é SIAFI, não IBGE).'),
    uf: Text('UF, 2 letras (EX para o exterior).'),
    telefone_1: Text('Telefone 1, só dígitos, sem DDD.'),
    ddd_1: Text('DDD do telefone 1.'),
    email: Text('E-mail de contato.'),
    has_email: Type.Boolean({ description: 'true quando há e-mail.' }),
    has_website: Type.Boolean({ description: 'true quando há um site em contatos_extras.' }),
    opc_simples: Text('Opção pelo Simples Nacional: SIM, NÃO, ou "" sem informação.'),
    opc_mei: Text('Opção pelo MEI: SIM, NÃO, ou "" sem informação.'),
    porte: Text('Porte: NÃO INFORMADO, MICRO EMPRESA, EMPRESA DE PEQUENO PORTE ou DEMAIS.'),
    regime_tributario: Type.Optional(
      Type.String({
        description:
          'Forma de tributação (LUCRO REAL, LUCRO PRESUMIDO, LUCRO ARBITRADO, IMUNE DO IRPJ, ISENTA DO IRPJ) do ano mais recente da empresa (8 primeiros caracteres do CNPJ); dentro do ano, a linha deste CNPJ prevalece. Ausente quando não há dados.',
      }),
    ),
    ano_regime_tributario: Type.Optional(
      Type.Integer({ description: 'Ano do regime tributário. Ausente quando não há dados.' }),
    ),
    escrituracoes_regime_tributario: Type.Optional(
      Type.Integer({ description: 'Quantidade de escriturações (ECF) do regime no ano. Ausente quando não há dados.' }),
    ),
    numero_funcionarios: Type.Optional(
      Type.String({
        description:
          'Faixa de número de funcionários. Não existe nos dados abertos: ausente salvo enriquecimento pelo operador.',
      }),
    ),
    // Extra fields, documented in docs/api-response.md.
    data_situacao_cadastral: DateOrNull('(extra) Data da situação cadastral.'),
    motivo_situacao_cadastral: Text(
      '(extra) Motivo da situação cadastral (descrição da tabela de motivos; o código quando ausente).',
    ),
    situacao_especial: Text('(extra) Situação especial, em palavras (ex.: RECUPERACAO JUDICIAL).'),
    data_situacao_especial: DateOrNull('(extra) Data da situação especial.'),
    ddd_2: Text('(extra) DDD do telefone 2.'),
    telefone_2: Text('(extra) Telefone 2, só dígitos, sem DDD.'),
  },
  { additionalProperties: false, description: 'Dados da empresa e do estabelecimento.' },
);

export const SocioSchema = Type.Object(
  {
    nome_socio: Text('Nome do sócio (pessoa física) ou razão social (pessoa jurídica).'),
    cnpj_cpf_socio: Text(
      'Como publicado pela Receita: CNPJ de 14 caracteres, CPF mascarado (***NNNNNN**), ou "" para sócio estrangeiro.',
    ),
    data_entrada: DateOrNull('Data de entrada na sociedade.'),
    faixa_etaria: Text('Faixa etária (Não se aplica, 0 a 12 anos, ..., Maior de 80 anos).'),
    qualificacao_socio: Text('(extra) Qualificação do sócio (tabela de qualificações; o código quando ausente).'),
  },
  {
    additionalProperties: false,
    description: 'Sócio ou administrador (QSA), comum a todos os estabelecimentos da empresa.',
  },
);

export const ContatoExtraSchema = Type.Object(
  {
    tipo_contato: Type.String({ description: 'Tipo do contato (ex.: website).' }),
    tipo_website: Type.String({ description: 'Subtipo do site quando tipo_contato é website; "" caso contrário.' }),
    contato: Type.String({ description: 'O contato, por exemplo um endereço web.' }),
  },
  { additionalProperties: false, description: 'Contato extra mantido pelo operador do serviço.' },
);

export const CompanyResponseSchema = Type.Object(
  {
    company: CompanySchema,
    socios: Type.Array(SocioSchema, { description: 'Sócios, por data de entrada e depois nome; [] quando não há.' }),
    contatos_extras: Type.Array(ContatoExtraSchema, { description: 'Contatos extras; [] quando não há.' }),
  },
  { additionalProperties: false },
);

export const ErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'Código do erro, estável, para programas.' }),
    message: Type.String({ description: 'Frase em português para uma pessoa.' }),
  },
  { additionalProperties: false },
);

export const StatusSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('registry_unavailable')]),
    registry: Type.Union([
      Type.Object({
        id: Type.String(),
        month: Type.String({ description: 'Mês dos dados da Receita, AAAA-MM.' }),
        imported_at: Type.String({ description: 'Quando a importação foi publicada (ISO 8601).' }),
        schema_version: Type.Integer(),
        synthetic: Type.Boolean({
          description: 'true quando os dados são sintéticos (demonstração do primeiro uso), não da Receita.',
        }),
        partial: Type.Boolean({
          description:
            'true quando o mês foi publicado incompleto (faltam arquivos ou linhas da Receita), por decisão do operador.',
        }),
        counts: Type.Record(Type.String(), Type.Integer(), { description: 'Linhas por tabela.' }),
      }),
      Type.Null(),
    ]),
  },
  {},
);

export type Company = Static<typeof CompanySchema>;
export type Socio = Static<typeof SocioSchema>;
export type ContatoExtra = Static<typeof ContatoExtraSchema>;
export type CompanyResponse = Static<typeof CompanyResponseSchema>;
export type ErrorBody = Static<typeof ErrorSchema>;
export type StatusBody = Static<typeof StatusSchema>;
