// Snapshot rows for the API tests. The SERPRO rows are the real values of the Receita sample
// files (Estabelecimentos0, Empresas0, Socios0, Simples, Cnaes, Municipios, Naturezas,
// Qualificacoes, Lucro Presumido 2018), kept in src/domain/company/example.ts for the docs.
import { makeCnpj } from '../../src/domain/cnpj.ts';
import {
  SERPRO_COMPANY,
  SERPRO_ESTABLISHMENT,
  SERPRO_CODE_TABLES,
  SERPRO_PARTNERS,
  SERPRO_REGIMES,
  SERPRO_SIMPLES,
} from '../../src/domain/company/example.ts';
import type { EstablishmentRow } from '../../src/storage/snapshots/tables.ts';
import type { SnapshotData } from './helpers.ts';

export const SERPRO_FILIAL = '33683111000280';
export const SERPRO_MATRIZ = makeCnpj('33683111', '0001');
export const ALNUM = '12ABC34501DE35';
/** Valid check digits, not in the registry. */
export const ABSENT = makeCnpj('99999999', '0001');

const LONG_CNAE =
  'Atividade de teste com uma descrição propositalmente longa para verificar o corte em cem caracteres do campo humano';

const blankEstablishment: EstablishmentRow = Object.fromEntries(
  Object.keys(SERPRO_ESTABLISHMENT).map((k) => [k, null]),
) as EstablishmentRow;

export function fixture(): SnapshotData {
  return {
    establishments: [
      SERPRO_ESTABLISHMENT,
      {
        ...blankEstablishment,
        cnpj: SERPRO_MATRIZ,
        matriz_filial: 1,
        situacao_cadastral: 2,
        cnae_fiscal: 6204000,
        uf: 'DF',
        municipio: 9701,
      },
      {
        ...blankEstablishment,
        cnpj: ALNUM,
        matriz_filial: 1,
        situacao_cadastral: 8,
        data_situacao_cadastral: 0,
        motivo_situacao_cadastral: 32, // absent from Motivos in the real data
        data_inicio_atividade: 20260231, // impossible date
        cnae_fiscal: 111301,
        cnaes_secundarios: '9999999,,0111301',
        cep: '1310100',
        uf: 'SP',
        municipio: 7107,
        ddd_1: '(11)',
        telefone_1: '3333-4444',
        email: '  Contato@Exemplo.com.br ',
        situacao_especial: 'RECUPERACAO JUDICIAL',
        data_situacao_especial: 20250102,
      },
    ],
    companies: [
      SERPRO_COMPANY,
      {
        basico: '12ABC345',
        razao_social: '  EMPRESA   ALFANUMERICA  LTDA ',
        natureza_juridica: 9999,
        qualificacao_responsavel: 49,
        capital_social_cents: 5,
        porte: null,
        ente_federativo: null,
      },
    ],
    simples: [SERPRO_SIMPLES],
    partners: SERPRO_PARTNERS,
    regimes: [
      ...SERPRO_REGIMES,
      { basico: '33683111', cnpj: SERPRO_MATRIZ, ano: 2017, cnpj_scp: null, forma: 'LUCRO REAL', escrituracoes: 2 },
      { basico: '33683111', cnpj: SERPRO_MATRIZ, ano: 2018, cnpj_scp: null, forma: 'IMUNE DO IRPJ', escrituracoes: 3 },
    ],
    codeTables: { ...SERPRO_CODE_TABLES, cnaes: [...SERPRO_CODE_TABLES.cnaes, [9999999, LONG_CNAE]] },
  };
}

export const SERPRO_EXPECTED = {
  company: {
    cnpj: '33683111000280',
    cnpj_pretty: '33.683.111/0002-80',
    razao_social: 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)',
    nome_fantasia: 'REGIONAL BRASILIA-DF',
    situacao_cadastral: 'ATIVA',
    matriz_filial: 'FILIAL',
    cnae_fiscal: '6204000',
    cnae_fiscal_human: '6204-0/00 - Consultoria em tecnologia da informação',
    cnaes_secundarios: [6201501, 6202300, 6203100, 6209100, 6311900],
    cnaes_secundarios_human:
      '6201-5/01 - Desenvolvimento de programas de computador sob encomenda; ' +
      '6202-3/00 - Desenvolvimento e licenciamento de programas de computador customizáveis; ' +
      '6203-1/00 - Desenvolvimento e licenciamento de programas de computador não-customizáveis; ' +
      '6209-1/00 - Suporte técnico, manutenção e outros serviços em tecnologia da informação; ' +
      '6311-9/00 - Tratamento de dados, provedores de serviços de aplicação e serviços de hospedagem na internet',
    data_inicio_atividade: '1967-06-30',
    natureza_juridica: 'Empresa Pública',
    capital_social: '1061004829.23',
    tipo_logradouro: 'AVENIDA',
    logradouro: 'L2 SGAN',
    numero: '601',
    complemento: 'MODULO G',
    bairro: 'ASA NORTE',
    cep: '70836900',
    municipio: 'BRASILIA',
    uf: 'DF',
    telefone_1: '',
    ddd_1: '',
    email: '',
    has_email: false,
    has_website: true,
    opc_simples: 'SIM',
    opc_mei: 'NÃO',
    porte: 'DEMAIS',
    regime_tributario: 'LUCRO PRESUMIDO',
    ano_regime_tributario: 2018,
    escrituracoes_regime_tributario: 1,
    data_situacao_cadastral: '2004-05-22',
    motivo_situacao_cadastral: 'SEM  MOTIVO',
    situacao_especial: '',
    data_situacao_especial: null,
    ddd_2: '',
    telefone_2: '',
  },
  socios: [
    {
      nome_socio: 'ANDRE DE CESERO',
      cnpj_cpf_socio: '***220050**',
      data_entrada: '2016-06-16',
      faixa_etaria: '51 a 60 anos',
      qualificacao_socio: 'Diretor',
    },
    {
      nome_socio: 'ANTONIO DE PADUA FERREIRA PASSOS',
      cnpj_cpf_socio: '***595901**',
      data_entrada: '2016-12-08',
      faixa_etaria: '61 a 70 anos',
      qualificacao_socio: 'Diretor',
    },
    {
      nome_socio: 'ANTONINO DOS SANTOS GUERRA NETO',
      cnpj_cpf_socio: '***073447**',
      data_entrada: '2019-02-11',
      faixa_etaria: '61 a 70 anos',
      qualificacao_socio: 'Administrador',
    },
    {
      nome_socio: 'WILSON BIANCARDI COURY',
      cnpj_cpf_socio: '***414127**',
      data_entrada: '2019-06-18',
      faixa_etaria: '71 a 80 anos',
      qualificacao_socio: 'Diretor',
    },
    {
      nome_socio: 'GILENO GURJAO BARRETO',
      cnpj_cpf_socio: '***099595**',
      data_entrada: '2020-02-03',
      faixa_etaria: '41 a 50 anos',
      qualificacao_socio: 'Presidente',
    },
    {
      nome_socio: 'RICARDO CEZAR DE MOURA JUCA',
      cnpj_cpf_socio: '***989951**',
      data_entrada: '2020-05-12',
      faixa_etaria: '41 a 50 anos',
      qualificacao_socio: 'Diretor',
    },
  ],
  contatos_extras: [{ tipo_contato: 'website', tipo_website: 'institucional', contato: 'https://www.serpro.gov.br' }],
};

export const SERPRO_CONTACT_ROWS = [
  { cnpj: SERPRO_FILIAL, tipo_contato: 'website', tipo_website: 'institucional', contato: 'https://www.serpro.gov.br' },
];
