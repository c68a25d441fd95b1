// A real public record (SERPRO, establishment 33.683.111/0002-80, Receita open data) as snapshot
// rows. The docs and /openapi.json show exampleResponse(), produced by the real mapping, so the
// documented example cannot drift from what the API returns.
import type {
  CompanyRow,
  EstablishmentRow,
  CodeTable,
  PartnerRow,
  RegimeRow,
  SimplesRow,
} from '../../storage/snapshots/tables.ts';
import { mapCompany, type SnapshotRows } from './map.ts';
import type { CompanyResponse, ContatoExtra } from './schema.ts';
import { EXAMPLE_CNPJ } from '../cnpj.ts';

export const SERPRO_ESTABLISHMENT: EstablishmentRow = {
  cnpj: EXAMPLE_CNPJ,
  matriz_filial: 2,
  nome_fantasia: 'REGIONAL BRASILIA-DF',
  situacao_cadastral: 2,
  data_situacao_cadastral: 20040522,
  motivo_situacao_cadastral: 0,
  nome_cidade_exterior: null,
  pais: null,
  data_inicio_atividade: 19670630,
  cnae_fiscal: 6204000,
  cnaes_secundarios: '6201501,6202300,6203100,6209100,6311900',
  tipo_logradouro: 'AVENIDA',
  logradouro: 'L2 SGAN',
  numero: '601',
  complemento: 'MODULO G',
  bairro: 'ASA NORTE',
  cep: 70836900, // stored as an INTEGER, padded back to 8 digits
  uf: 'DF',
  municipio: 9701,
  ddd_1: null,
  telefone_1: null,
  ddd_2: null,
  telefone_2: null,
  ddd_fax: null,
  fax: null,
  email: null,
  situacao_especial: null,
  data_situacao_especial: null,
};

export const SERPRO_COMPANY: CompanyRow = {
  basico: '33683111',
  razao_social: 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)',
  natureza_juridica: 2011,
  qualificacao_responsavel: 16,
  capital_social_cents: 106100482923,
  porte: 5,
  ente_federativo: null,
};

export const SERPRO_SIMPLES: SimplesRow = {
  basico: '33683111',
  opcao_simples: 'S',
  data_opcao_simples: 20140101,
  data_exclusao_simples: null,
  opcao_mei: 'N',
  data_opcao_mei: null,
  data_exclusao_mei: null,
};

const partner = (nome: string, cpf: string, qualificacao: number, entrada: number, faixa: number): PartnerRow => ({
  basico: '33683111',
  identificador: 2,
  nome,
  cnpj_cpf: cpf,
  qualificacao,
  data_entrada: entrada,
  pais: null,
  representante_cpf: '***000000**',
  representante_nome: null,
  representante_qualificacao: 0,
  faixa_etaria: faixa,
});

/** In file order (Socios0.zip), not in response order. */
export const SERPRO_PARTNERS: PartnerRow[] = [
  partner('ANDRE DE CESERO', '***220050**', 10, 20160616, 6),
  partner('ANTONIO DE PADUA FERREIRA PASSOS', '***595901**', 10, 20161208, 7),
  partner('WILSON BIANCARDI COURY', '***414127**', 10, 20190618, 8),
  partner('GILENO GURJAO BARRETO', '***099595**', 16, 20200203, 5),
  partner('RICARDO CEZAR DE MOURA JUCA', '***989951**', 10, 20200512, 5),
  partner('ANTONINO DOS SANTOS GUERRA NETO', '***073447**', 5, 20190211, 7),
];

export const SERPRO_REGIMES: RegimeRow[] = [
  { basico: '33683111', cnpj: '33683111000280', ano: 2018, cnpj_scp: null, forma: 'LUCRO PRESUMIDO', escrituracoes: 1 },
];

/** The lookup rows the example needs (descriptions as in the Receita tables). */
export const SERPRO_CODE_TABLES: Record<CodeTable, [number, string][]> = {
  cnaes: [
    [6204000, 'Consultoria em tecnologia da informação'],
    [6201501, 'Desenvolvimento de programas de computador sob encomenda'],
    [6202300, 'Desenvolvimento e licenciamento de programas de computador customizáveis'],
    [6203100, 'Desenvolvimento e licenciamento de programas de computador não-customizáveis'],
    [6209100, 'Suporte técnico, manutenção e outros serviços em tecnologia da informação'],
    [6311900, 'Tratamento de dados, provedores de serviços de aplicação e serviços de hospedagem na internet'],
  ],
  motivos: [[0, 'SEM  MOTIVO']],
  municipios: [[9701, 'BRASILIA']],
  naturezas: [[2011, 'Empresa Pública']],
  paises: [[105, 'BRASIL']],
  qualificacoes: [
    [5, 'Administrador'],
    [10, 'Diretor'],
    [16, 'Presidente'],
  ],
};

export const SERPRO_CONTACTS: ContatoExtra[] = [
  { tipo_contato: 'website', tipo_website: 'institucional', contato: 'https://www.serpro.gov.br' },
];

export function serproRows(): SnapshotRows {
  return {
    establishment: SERPRO_ESTABLISHMENT,
    company: SERPRO_COMPANY,
    simples: SERPRO_SIMPLES,
    partners: SERPRO_PARTNERS,
    regimes: SERPRO_REGIMES,
  };
}

let cached: CompanyResponse | undefined;

export function exampleResponse(): CompanyResponse {
  if (!cached) {
    const codeTables = {} as Record<CodeTable, Map<number, string>>;
    for (const [k, v] of Object.entries(SERPRO_CODE_TABLES) as [CodeTable, [number, string][]][])
      codeTables[k] = new Map(v);
    cached = mapCompany(serproRows(), codeTables, SERPRO_CONTACTS);
  }
  return cached;
}
