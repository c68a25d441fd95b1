// ReceitaWS's answer (GET /v1/cnpj/{cnpj}) as TypeBox schemas: the mapper's types (Static<>) and
// the OpenAPI description of the compat route. ReceitaWS is closed source: every field, type and
// format comes from captured answers and client models (docs/compat.md §5). Keys are in the order of
// the December 2024 capture (emanoelCarvalho/consulta-cnpj README.md @ 1fde8a01), which is the order
// the body is written in. Descriptions are Portuguese: OpenAPI shows them to clients as they are.
import { Type, type Static } from '@sinclair/typebox';

const Text = (description: string, examples?: string[]) =>
  Type.String({ description: `${description} Texto vazio ("") quando não há.`, ...(examples ? { examples } : {}) });
const BrDate = (description: string) =>
  Type.String({ description: `${description} Formato dd/mm/aaaa; "" quando ausente ou inválida na base.` });

const Atividade = (description: string) =>
  Type.Object(
    {
      code: Type.String({ description: 'Código CNAE no formato NN.NN-N-NN.', examples: ['62.04-0-00'] }),
      text: Type.String({ description: 'Descrição da atividade (tabela de CNAEs da Receita).' }),
    },
    { description, additionalProperties: false },
  );

export const ReceitawsSocioSchema = Type.Object(
  {
    nome: Type.String({ description: 'Nome do sócio ou razão social do sócio pessoa jurídica.' }),
    qual: Type.String({
      description: 'Qualificação do sócio: código de 2 dígitos, "-", descrição.',
      examples: ['49-Sócio-Administrador'],
    }),
    pais_origem: Type.Optional(
      Type.String({ description: 'País do sócio; presente só quando a base informa um país (sócio estrangeiro).' }),
    ),
    nome_rep_legal: Type.Optional(
      Type.String({ description: 'Nome do representante legal; presente só quando o sócio tem representante.' }),
    ),
    qual_rep_legal: Type.Optional(
      Type.String({
        description: 'Qualificação do representante legal ("NN-Descrição"); presente só com nome_rep_legal.',
        examples: ['17-Procurador'],
      }),
    ),
  },
  { additionalProperties: false },
);

const Opcao = (regime: string) =>
  Type.Union(
    [
      Type.Object(
        {
          optante: Type.Boolean({ description: `true quando a empresa é optante pelo ${regime}.` }),
          data_opcao: BrDate(`Data de opção pelo ${regime}.`),
          data_exclusao: BrDate(`Data de exclusão do ${regime}.`),
          ultima_atualizacao: Type.String({
            description: 'Data de extração dos dados abertos da Receita, às 23:59:59.000Z (ISO 8601, UTC).',
            examples: ['2026-09-13T23:59:59.000Z'],
          }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { description: `Opção pelo ${regime}; null quando a base não tem linha do Simples para a empresa.` },
  );

export const ReceitawsBodySchema = Type.Object(
  {
    abertura: BrDate('Data de início da atividade.'),
    situacao: Text('Situação cadastral: NULA, ATIVA, SUSPENSA, INAPTA ou BAIXADA.', ['ATIVA']),
    tipo: Text('MATRIZ ou FILIAL.'),
    nome: Text('Razão social.'),
    porte: Text('Porte: MICRO EMPRESA, EMPRESA DE PEQUENO PORTE, DEMAIS ou NÃO INFORMADO.'),
    natureza_juridica: Text('Natureza jurídica: código NNN-N, " - ", descrição.', [
      '206-2 - Sociedade Empresária Limitada',
    ]),
    logradouro: Text('Tipo e nome do logradouro.', ['AVENIDA PAULISTA']),
    numero: Text('Número.'),
    complemento: Text('Complemento.'),
    municipio: Text('Município, em maiúsculas e sem acentos (tabela da Receita).'),
    bairro: Text('Bairro.'),
    uf: Text('UF (EX no exterior).'),
    cep: Text('CEP no formato NN.NNN-NNN.', ['70.836-900']),
    email: Text('E-mail.'),
    telefone: Text('Telefones no formato "(DD) NNNN-NNNN", separados por " / " (telefone 1, telefone 2, fax).'),
    data_situacao: BrDate('Data da situação cadastral.'),
    motivo_situacao: Text('Motivo da situação cadastral, com iniciais maiúsculas; "" sem motivo.'),
    cnpj: Type.String({ description: 'CNPJ no formato NN.NNN.NNN/NNNN-NN.', examples: ['33.683.111/0002-80'] }),
    ultima_atualizacao: Type.String({
      description: 'Momento em que este servidor importou os dados (ISO 8601, UTC, milissegundos).',
      examples: ['2026-09-20T04:00:00.000Z'],
    }),
    status: Type.Literal('OK', { description: 'Sempre "OK" numa consulta bem-sucedida.' }),
    fantasia: Text('Nome fantasia.'),
    efr: Text('Ente federativo responsável (órgãos públicos).'),
    situacao_especial: Text('Situação especial.'),
    data_situacao_especial: BrDate('Data da situação especial.'),
    atividade_principal: Type.Array(Atividade('Atividade principal.'), {
      description:
        'Um item: a atividade principal. Empresa BAIXADA: [{"code":"00.00-0-00","text":"********"}]; sem CNAE principal: [{"code":"00.00-0-00","text":"Não informada"}].',
    }),
    atividades_secundarias: Type.Array(Atividade('Atividade secundária.'), {
      description: 'Atividades secundárias; sem nenhuma: [{"code":"00.00-0-00","text":"Não informada"}].',
    }),
    capital_social: Type.String({
      description: 'Capital social, ponto decimal, duas casas, sem separador de milhar; "0.00" quando ausente.',
      examples: ['1061004829.23'],
    }),
    qsa: Type.Array(ReceitawsSocioSchema, { description: 'Quadro de sócios e administradores; [] quando não há.' }),
    simples: Opcao('Simples Nacional'),
    simei: Opcao('SIMEI (MEI)'),
    extra: Type.Object({}, { description: 'Sempre {}.', additionalProperties: false }),
    billing: Type.Object(
      {
        free: Type.Boolean({ description: 'Sempre true: a consulta não é cobrada à parte.' }),
        database: Type.Boolean({ description: 'Sempre true: respondida da base importada, não em tempo real.' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ReceitawsErrorSchema = Type.Object(
  {
    status: Type.Literal('ERROR', { description: 'Sempre "ERROR" numa resposta de erro.' }),
    message: Type.String({
      description: 'Motivo: "CNPJ inválido", "CNPJ rejeitado pela Receita Federal", ou a mensagem deste servidor.',
      examples: ['CNPJ rejeitado pela Receita Federal'],
    }),
  },
  { additionalProperties: false },
);

export type ReceitawsBody = Static<typeof ReceitawsBodySchema>;
export type ReceitawsSocio = Static<typeof ReceitawsSocioSchema>;
export type ReceitawsAtividade = ReceitawsBody['atividade_principal'][number];
export type ReceitawsOpcao = ReceitawsBody['simples'];
export type ReceitawsError = Static<typeof ReceitawsErrorSchema>;
