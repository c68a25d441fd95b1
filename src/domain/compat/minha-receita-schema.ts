// Minha Receita's answer (cuducos/minha-receita @ e04fefb7, transform/company.go `Company`,
// partners.go `PartnerData`, lookups.go `CNAE`, taxes.go `TaxRegime`) as TypeBox schemas: the
// types of the mapping (Static<>) and the compat route's OpenAPI. Properties are listed in the
// order the upstream's wire text has them, PostgreSQL jsonb's (by length, then bytewise), which is
// also the order the mapping builds them in; BrasilAPI serves the same object (brasilapi.ts).
// Descriptions are Portuguese: clients read them as they are.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const Null = <T extends TSchema>(t: T, description: string) => Type.Union([t, Type.Null()], { description });
const Int = (description: string) => Null(Type.Integer(), description);
const Str = (description: string) => Null(Type.String(), description);
const DateOrNull = (description: string) =>
  Null(Type.String({ format: 'date' }), `${description} AAAA-MM-DD; null quando vazia ou zerada na base.`);
const Bool = (description: string) => Null(Type.Boolean(), `${description} true (S), false (N), null sem informação.`);
const Text = (description: string) => Type.String({ description: `${description} "" quando vazio.` });

export const MinhaReceitaPartnerSchema = Type.Object(
  {
    pais: Str('País do sócio estrangeiro (tabela de países); null quando não há código ou ele é desconhecido.'),
    nome_socio: Text('Nome do sócio (pessoa) ou razão social (empresa).'),
    codigo_pais: Int('Código do país do sócio; null quando vazio ou fora da tabela de países.'),
    faixa_etaria: Str('Faixa etária por extenso, nos termos da Minha Receita; null para código desconhecido.'),
    cnpj_cpf_do_socio: Text('CNPJ (14 dígitos) ou CPF mascarado (***NNNNNN**) do sócio.'),
    qualificacao_socio: Str('Qualificação do sócio (tabela de qualificações); null quando fora da tabela.'),
    codigo_faixa_etaria: Int('Código da faixa etária (0 a 9).'),
    data_entrada_sociedade: DateOrNull('Data de entrada na sociedade.'),
    identificador_de_socio: Int('1 pessoa jurídica, 2 pessoa física, 3 estrangeiro.'),
    cpf_representante_legal: Text('CPF mascarado do representante legal (***000000** quando não há).'),
    nome_representante_legal: Text('Nome do representante legal.'),
    codigo_qualificacao_socio: Int('Código da qualificação do sócio.'),
    qualificacao_representante_legal: Str('Qualificação do representante legal; null quando fora da tabela.'),
    codigo_qualificacao_representante_legal: Int('Código da qualificação do representante legal (0 quando não há).'),
  },
  { additionalProperties: false, description: 'Um sócio (quadro societário).' },
);

export const MinhaReceitaCnaeSchema = Type.Object(
  {
    codigo: Type.Integer({ description: 'Código CNAE (inteiro, sem zeros à esquerda); 0 quando a lista está vazia.' }),
    descricao: Type.String({ description: 'Descrição do CNAE; "" quando fora da tabela ou para o código 0.' }),
  },
  { additionalProperties: false },
);

export const MinhaReceitaRegimeSchema = Type.Object(
  {
    ano: Type.Integer({ description: 'Ano-calendário.' }),
    cnpj_da_scp: Str('CNPJ da SCP; null quando não há.'),
    forma_de_tributacao: Type.String({ description: 'Forma de tributação (LUCRO REAL, LUCRO PRESUMIDO, ...).' }),
    quantidade_de_escrituracoes: Type.Integer({ description: 'Quantidade de escriturações (ECF) do ano.' }),
  },
  { additionalProperties: false },
);

export const MinhaReceitaCompanySchema = Type.Object(
  {
    uf: Text('UF, 2 letras (EX no exterior).'),
    cep: Text('CEP, 8 dígitos sem pontuação.'),
    qsa: Type.Array(MinhaReceitaPartnerSchema, {
      description: 'Quadro de sócios e administradores; [] quando não há.',
    }),
    cnpj: Type.String({ description: 'CNPJ com 14 caracteres, sem pontuação.' }),
    pais: Str('País do estabelecimento no exterior; null quando não há código ou ele é desconhecido.'),
    email: Text('E-mail de contato, como esta API o serve (a Minha Receita pública o oculta).'),
    porte: Str('NÃO INFORMADO, MICRO EMPRESA, EMPRESA DE PEQUENO PORTE ou DEMAIS; null sem código conhecido.'),
    bairro: Text('Bairro.'),
    numero: Text('Número.'),
    ddd_fax: Text('DDD e número do fax, só dígitos.'),
    municipio: Str('Município (tabela da Receita); null no exterior ou fora da tabela.'),
    logradouro: Text('Logradouro.'),
    cnae_fiscal: Type.Integer({ description: 'CNAE principal (inteiro); 0 quando vazio.' }),
    codigo_pais: Int('Código do país; null quando vazio ou fora da tabela de países.'),
    complemento: Text('Complemento.'),
    codigo_porte: Int('Código do porte (0, 1, 3 ou 5).'),
    razao_social: Text('Razão social.'),
    nome_fantasia: Text('Nome fantasia.'),
    capital_social: Null(
      Type.Number(),
      'Capital social como a Minha Receita o guarda: arredondado para float32 (ex.: 1061004829,23 → 1061004800); null quando vazio.',
    ),
    ddd_telefone_1: Text('DDD e telefone 1, só dígitos.'),
    ddd_telefone_2: Text('DDD e telefone 2, só dígitos.'),
    opcao_pelo_mei: Bool('Opção pelo MEI.'),
    codigo_municipio: Int('Código SIAFI do município; null no exterior.'),
    cnaes_secundarios: Type.Array(MinhaReceitaCnaeSchema, {
      description: 'CNAEs secundários na ordem da Receita; [{"codigo": 0, "descricao": ""}] quando não há.',
    }),
    natureza_juridica: Str('Natureza jurídica (tabela da Receita); null fora da tabela.'),
    regime_tributario: Type.Array(MinhaReceitaRegimeSchema, {
      description: 'Regimes tributários declarados por este CNPJ, por ano; [] quando não há.',
    }),
    situacao_especial: Text('Situação especial.'),
    opcao_pelo_simples: Bool('Opção pelo Simples Nacional.'),
    situacao_cadastral: Int('Código da situação cadastral (1, 2, 3, 4 ou 8).'),
    data_opcao_pelo_mei: DateOrNull('Data de opção pelo MEI.'),
    data_exclusao_do_mei: DateOrNull('Data de exclusão do MEI.'),
    cnae_fiscal_descricao: Str('Descrição do CNAE principal; null fora da tabela.'),
    codigo_municipio_ibge: Int('Código IBGE do município (7 dígitos); null no exterior ou desconhecido.'),
    data_inicio_atividade: DateOrNull('Data de início da atividade.'),
    data_situacao_especial: DateOrNull('Data da situação especial.'),
    data_opcao_pelo_simples: DateOrNull('Data de opção pelo Simples.'),
    data_situacao_cadastral: DateOrNull('Data da situação cadastral.'),
    nome_cidade_no_exterior: Text('Cidade no exterior.'),
    codigo_natureza_juridica: Int('Código da natureza jurídica.'),
    data_exclusao_do_simples: DateOrNull('Data de exclusão do Simples.'),
    motivo_situacao_cadastral: Int('Código do motivo da situação cadastral.'),
    ente_federativo_responsavel: Text('Ente federativo responsável (órgãos públicos).'),
    identificador_matriz_filial: Int('1 matriz, 2 filial.'),
    qualificacao_do_responsavel: Int('Código da qualificação do responsável pela empresa.'),
    descricao_situacao_cadastral: Str('NULA, ATIVA, SUSPENSA, INAPTA ou BAIXADA; null para código desconhecido.'),
    descricao_tipo_de_logradouro: Text('Tipo de logradouro (RUA, AVENIDA, ...).'),
    descricao_motivo_situacao_cadastral: Str('Descrição do motivo (tabela da Receita); null fora da tabela.'),
    descricao_identificador_matriz_filial: Str('MATRIZ ou FILIAL; null para código desconhecido.'),
  },
  { additionalProperties: false, description: 'Estabelecimento no formato da Minha Receita (e da BrasilAPI).' },
);

export const MinhaReceitaErrorSchema = Type.Object(
  { message: Type.String({ description: 'Mensagem em português (ex.: "CNPJ 123 inválido.").' }) },
  { additionalProperties: false, description: 'Erro no formato da Minha Receita.' },
);

export type MinhaReceitaCompany = Static<typeof MinhaReceitaCompanySchema>;
export type MinhaReceitaPartner = Static<typeof MinhaReceitaPartnerSchema>;
export type MinhaReceitaCnae = Static<typeof MinhaReceitaCnaeSchema>;
export type MinhaReceitaRegime = Static<typeof MinhaReceitaRegimeSchema>;
export type MinhaReceitaError = Static<typeof MinhaReceitaErrorSchema>;
