// OpenCNPJ's answer (Hitmasu/OpenCNPJ @ ee753a8a) as TypeBox schemas: the one source of the
// mapper's types (opencnpj.ts) and of the compat route's OpenAPI. Fields in the upstream's
// projection order (src/ETL/Modules/Receita/Processors/JsonProjection.cs, QsaProjection.cs), which
// is the order of the JSON text; types and nullability as src/Worker/src/schema.ts publishes them
// (every value a string or an array, "" when missing; only situacao_cadastral and matriz_filial
// can be null). Descriptions are Portuguese: OpenAPI shows them to clients as they are.
import { Type, type Static } from '@sinclair/typebox';

const DATE = '^$|^\\d{4}-\\d{2}-\\d{2}$';

const Text = (description: string, extra: Record<string, unknown> = {}) =>
  Type.String({ description: `${description} Texto vazio ("") quando a Receita não informa.`, ...extra });
const Day = (description: string) =>
  Type.String({ description: `${description} Formato AAAA-MM-DD; "" quando ausente ou inválida.`, pattern: DATE });

export const OpenCnpjTelefoneSchema = Type.Object(
  {
    ddd: Text('DDD, só dígitos.', { examples: ['61'] }),
    numero: Text('Número sem DDD, só dígitos.', { examples: ['22222222'] }),
    is_fax: Type.Boolean({ description: 'true para o fax do estabelecimento.' }),
  },
  { description: 'Telefone 1, telefone 2 e fax, nessa ordem; só os que têm DDD ou número.' },
);

export const OpenCnpjSocioSchema = Type.Object(
  {
    nome_socio: Text('Nome do sócio.'),
    cnpj_cpf_socio: Text('CNPJ do sócio pessoa jurídica (14 caracteres) ou CPF mascarado (***999999**).', {
      examples: ['***220050**'],
    }),
    qualificacao_socio: Text('Qualificação do sócio (descrição da tabela de qualificações do mês).', {
      examples: ['Diretor'],
    }),
    data_entrada_sociedade: Day('Data de entrada na sociedade.'),
    identificador_socio: Text('Pessoa Jurídica, Pessoa Física ou Estrangeiro.', { examples: ['Pessoa Física'] }),
    faixa_etaria: Text('Faixa etária: Não se aplica, 0 a 12 anos, …, Mais de 80 anos.', {
      examples: ['51 a 60 anos'],
    }),
  },
  { description: 'Um sócio do quadro societário (QSA).' },
);

export const OpenCnpjSchema = Type.Object(
  {
    cnpj: Type.String({
      description: 'CNPJ com 14 caracteres, sem máscara (letras nos CNPJs alfanuméricos).',
      pattern: '^[A-Z0-9]{12}\\d{2}$',
      examples: ['33683111000280'],
    }),
    razao_social: Text('Razão social (nome empresarial).'),
    nome_fantasia: Text('Nome fantasia do estabelecimento.'),
    situacao_cadastral: Type.Union([Type.String(), Type.Null()], {
      description:
        'Situação cadastral: Nula, Ativa, Suspensa, Inapta ou Baixada (outro código aparece como publicado); null quando a Receita não informa.',
      examples: ['Ativa'],
    }),
    data_situacao_cadastral: Day('Data da situação cadastral.'),
    matriz_filial: Type.Union([Type.String(), Type.Null()], {
      description: 'Matriz ou Filial (outro código aparece como publicado); null quando a Receita não informa.',
      examples: ['Filial'],
    }),
    data_inicio_atividade: Day('Data de início da atividade.'),
    cnae_principal: Text('CNAE fiscal principal, 7 dígitos.', { examples: ['6204000'] }),
    cnaes_secundarios: Type.Array(Type.String({ description: 'Código CNAE, 7 dígitos.' }), {
      description: 'CNAEs secundários; [] quando não há.',
      examples: [['6201501', '6202300']],
    }),
    natureza_juridica: Text('Natureza jurídica (descrição da tabela de naturezas do mês).', {
      examples: ['Empresa Pública'],
    }),
    tipo_logradouro: Text('Tipo de logradouro.'),
    logradouro: Text('Logradouro.'),
    numero: Text('Número (S/N quando sem número).'),
    complemento: Text('Complemento do endereço.'),
    bairro: Text('Bairro.'),
    cep: Text('CEP, 8 dígitos sem máscara.', { examples: ['70836900'] }),
    uf: Text('UF, 2 letras (EX para o exterior).'),
    municipio: Text('Município (descrição da tabela de municípios do mês).', { examples: ['BRASILIA'] }),
    email: Text('E-mail de contato.'),
    telefones: Type.Array(OpenCnpjTelefoneSchema, { description: 'Telefones e fax; [] quando não há.' }),
    capital_social: Text('Capital social em reais, vírgula decimal, duas casas.', { examples: ['1061004829,23'] }),
    porte_empresa: Text('Porte: Não informado, Microempresa (ME), Empresa de Pequeno Porte (EPP) ou Demais.', {
      examples: ['Demais'],
    }),
    opcao_simples: Text('Opção pelo Simples Nacional: S ou N.'),
    data_opcao_simples: Day('Data da opção pelo Simples (0000-00-00 quando a Receita a publica zerada).'),
    opcao_mei: Text('Opção pelo MEI: S ou N.'),
    data_opcao_mei: Day('Data da opção pelo MEI (0000-00-00 quando a Receita a publica zerada).'),
    QSA: Type.Array(OpenCnpjSocioSchema, { description: 'Quadro de sócios e administradores; [] quando não há.' }),
  },
  { description: 'Um estabelecimento no formato da OpenCNPJ (api.opencnpj.org/{cnpj}), sem módulos (cno, rntrc).' },
);

export const OpenCnpjErrorSchema = Type.Object(
  {
    error: Type.String({
      description:
        'invalid cnpj (400), not found (404), method not allowed (405); nas recusas deste serviço (token, cota, indisponibilidade), o código de erro dele (docs/errors.md).',
      examples: ['not found'],
    }),
  },
  { description: 'Erro no formato da OpenCNPJ.' },
);

export type OpenCnpjBody = Static<typeof OpenCnpjSchema>;
export type OpenCnpjTelefone = Static<typeof OpenCnpjTelefoneSchema>;
export type OpenCnpjSocio = Static<typeof OpenCnpjSocioSchema>;
export type OpenCnpjError = Static<typeof OpenCnpjErrorSchema>;
