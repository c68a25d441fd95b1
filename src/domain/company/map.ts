// THE mapping from snapshot rows to the lookup response (docs/api-response.md). Every rule about a
// response field lives here and nowhere else; the reader only fetches rows.
import { formatCnpj } from '../cnpj.ts';
import type { CodeTables } from '../../storage/snapshots/code-tables.ts';
import type {
  CompanyRow,
  EstablishmentRow,
  PartnerRow,
  RegimeRow,
  SimplesRow,
} from '../../storage/snapshots/tables.ts';
import {
  CODE_WIDTH,
  FAIXA_ETARIA,
  MATRIZ_FILIAL,
  PORTE,
  SITUACAO_CADASTRAL,
  cnaeMask,
  codeNumber,
  codeText,
  collapse,
  digitsOnly,
  domainText,
  isoDate,
  codeDescription,
  moneyText,
  optionText,
  text,
} from './codes.ts';
import type { Company, CompanyResponse, ContatoExtra, Socio } from './schema.ts';

/**
 * The snapshot columns this mapping reads, per table. The reader fetches these and no others
 * (every column fetched costs the lookup time), and the row types below let the mapping read
 * nothing else.
 */
export const MAPPED_COLUMNS = {
  establishment: [
    'cnpj',
    'matriz_filial',
    'nome_fantasia',
    'situacao_cadastral',
    'data_situacao_cadastral',
    'motivo_situacao_cadastral',
    'data_inicio_atividade',
    'cnae_fiscal',
    'cnaes_secundarios',
    'tipo_logradouro',
    'logradouro',
    'numero',
    'complemento',
    'bairro',
    'cep',
    'uf',
    'municipio',
    'ddd_1',
    'telefone_1',
    'ddd_2',
    'telefone_2',
    'email',
    'situacao_especial',
    'data_situacao_especial',
  ],
  company: ['razao_social', 'natureza_juridica', 'capital_social_cents', 'porte'],
  simples: ['opcao_simples', 'opcao_mei'],
  partner: ['nome', 'cnpj_cpf', 'qualificacao', 'data_entrada', 'faixa_etaria'],
  regime: ['cnpj', 'ano', 'cnpj_scp', 'forma', 'escrituracoes'],
} as const satisfies {
  establishment: readonly (keyof EstablishmentRow)[];
  company: readonly (keyof CompanyRow)[];
  simples: readonly (keyof SimplesRow)[];
  partner: readonly (keyof PartnerRow)[];
  regime: readonly (keyof RegimeRow)[];
};

type Mapped<R, K extends keyof typeof MAPPED_COLUMNS> = Pick<R, Extract<(typeof MAPPED_COLUMNS)[K][number], keyof R>>;
export type MappedEstablishment = Mapped<EstablishmentRow, 'establishment'>;
export type MappedCompany = Mapped<CompanyRow, 'company'>;
export type MappedSimples = Mapped<SimplesRow, 'simples'>;
export type MappedPartner = Mapped<PartnerRow, 'partner'>;
export type MappedRegime = Mapped<RegimeRow, 'regime'>;

export interface SnapshotRows {
  establishment: MappedEstablishment;
  company: MappedCompany | null;
  simples: MappedSimples | null;
  partners: readonly MappedPartner[];
  regimes: readonly MappedRegime[];
}

const CNAE_HUMAN_MAX = 100;

/** `6204-0/00 - Consultoria em tecnologia da informação` (uncut). */
function cnaeHuman(code: number | string | null, cnaes: ReadonlyMap<number, string>): string {
  const code7 = codeText(code, CODE_WIDTH.cnae);
  if (code7 === '') return '';
  const n = codeNumber(code);
  const desc = n === null ? undefined : cnaes.get(n);
  return desc === undefined ? cnaeMask(code7) : `${cnaeMask(code7)} - ${desc}`;
}

/** Secondary CNAEs as stored ("6201501,6202300"): integers, empty and garbage entries skipped. */
export function secondaryCnaes(list: string | null): number[] {
  if (list === null) return [];
  const out: number[] = [];
  for (const part of list.split(',')) {
    const n = codeNumber(part);
    if (n !== null) out.push(n);
  }
  return out;
}

/** CEPs are stored as integers: pad back to 8 digits. Text (an older snapshot's 7-digit CEP, or a value that is not digits) as given, 7 digits padded. */
export function cepText(v: string | number | null): string {
  if (typeof v === 'number') return String(v).padStart(8, '0');
  const t = v === null ? '' : v.trim();
  return /^\d{7}$/.test(t) ? `0${t}` : t;
}

const bareCnpj = (v: string | null) => (v === null ? '' : v.replace(/[./\-\s]/g, '').toUpperCase());

type RegimeFields = Pick<Company, 'regime_tributario' | 'ano_regime_tributario' | 'escrituracoes_regime_tributario'>;

/** Latest year for the base; within it the row of this exact CNPJ wins, then a non-SCP row. */
export function pickRegime(rows: readonly MappedRegime[], cnpj: string): RegimeFields {
  let best: MappedRegime | null = null;
  let bestYear = -1;
  let bestRank = -1;
  for (const r of rows) {
    const year = codeNumber(r.ano);
    if (year === null || r.forma === null || r.forma.trim() === '') continue;
    const rank =
      (bareCnpj(r.cnpj) === cnpj ? 2 : 0) + (r.cnpj_scp === null || r.cnpj_scp === '' || r.cnpj_scp === '0' ? 1 : 0);
    if (year > bestYear || (year === bestYear && rank > bestRank)) {
      best = r;
      bestYear = year;
      bestRank = rank;
    }
  }
  if (best === null) return {};
  const out: RegimeFields = { regime_tributario: (best.forma ?? '').trim(), ano_regime_tributario: bestYear };
  const n = codeNumber(best.escrituracoes);
  if (n !== null) out.escrituracoes_regime_tributario = n;
  return out;
}

/** A partner row as the response shows it (also the partner search's rows, domain/search). */
export function mapSocio(p: MappedPartner, codeTables: CodeTables): Socio {
  return {
    nome_socio: collapse(p.nome),
    cnpj_cpf_socio: text(p.cnpj_cpf).trim(),
    data_entrada: isoDate(p.data_entrada),
    faixa_etaria: domainText(FAIXA_ETARIA, p.faixa_etaria, 1),
    qualificacao_socio: codeDescription(codeTables.qualificacoes, p.qualificacao, CODE_WIDTH.qualificacao),
  };
}

/** data_entrada ascending (unknown dates last), then nome_socio. */
function bySocioOrder(a: Socio, b: Socio): number {
  if (a.data_entrada !== b.data_entrada) {
    if (a.data_entrada === null) return 1;
    if (b.data_entrada === null) return -1;
    return a.data_entrada < b.data_entrada ? -1 : 1;
  }
  return a.nome_socio < b.nome_socio ? -1 : a.nome_socio > b.nome_socio ? 1 : 0;
}

/** has_website: the operator's extra contacts list a website (docs/api-response.md). */
export function hasWebsite(contacts: readonly ContatoExtra[]): boolean {
  return contacts.some((c) => c.tipo_contato === 'website');
}

export function mapCompany(
  rows: SnapshotRows,
  codeTables: CodeTables,
  contacts: readonly ContatoExtra[],
): CompanyResponse {
  const e = rows.establishment;
  const c = rows.company;
  const cnpj = e.cnpj ?? '';
  const mainCnae = codeText(e.cnae_fiscal, CODE_WIDTH.cnae);
  const human = cnaeHuman(e.cnae_fiscal, codeTables.cnaes);
  const secondary = secondaryCnaes(e.cnaes_secundarios);
  const email = text(e.email).trim();

  const company: Company = {
    cnpj,
    cnpj_pretty: formatCnpj(cnpj),
    razao_social: collapse(c?.razao_social ?? null),
    nome_fantasia: text(e.nome_fantasia),
    situacao_cadastral: domainText(SITUACAO_CADASTRAL, e.situacao_cadastral),
    matriz_filial: domainText(MATRIZ_FILIAL, e.matriz_filial, 1),
    cnae_fiscal: mainCnae,
    cnae_fiscal_human: human.length > CNAE_HUMAN_MAX ? `${human.slice(0, CNAE_HUMAN_MAX - 3)}...` : human,
    cnaes_secundarios: secondary,
    cnaes_secundarios_human: secondary.map((n) => cnaeHuman(n, codeTables.cnaes)).join('; '),
    data_inicio_atividade: isoDate(e.data_inicio_atividade),
    natureza_juridica: c ? codeDescription(codeTables.naturezas, c.natureza_juridica, CODE_WIDTH.natureza) : '',
    capital_social: c ? moneyText(c.capital_social_cents) : '',
    tipo_logradouro: text(e.tipo_logradouro),
    logradouro: text(e.logradouro),
    numero: text(e.numero),
    complemento: text(e.complemento),
    bairro: text(e.bairro),
    cep: cepText(e.cep),
    municipio: codeDescription(codeTables.municipios, e.municipio, CODE_WIDTH.municipio),
    uf: text(e.uf),
    telefone_1: digitsOnly(e.telefone_1),
    ddd_1: digitsOnly(e.ddd_1),
    email,
    has_email: email !== '',
    has_website: hasWebsite(contacts),
    opc_simples: optionText(rows.simples?.opcao_simples),
    opc_mei: optionText(rows.simples?.opcao_mei),
    porte: c ? domainText(PORTE, c.porte) : '',
    // Omitted, not null, when there is no regime data (docs/api-response.md).
    ...pickRegime(rows.regimes, cnpj),
    data_situacao_cadastral: isoDate(e.data_situacao_cadastral),
    motivo_situacao_cadastral: codeDescription(codeTables.motivos, e.motivo_situacao_cadastral, CODE_WIDTH.motivo),
    situacao_especial: text(e.situacao_especial),
    data_situacao_especial: isoDate(e.data_situacao_especial),
    ddd_2: digitsOnly(e.ddd_2),
    telefone_2: digitsOnly(e.telefone_2),
  };

  return {
    company,
    socios: rows.partners.map((p) => mapSocio(p, codeTables)).sort(bySocioOrder),
    contatos_extras: contacts.map((k) => ({
      tipo_contato: k.tipo_contato,
      tipo_website: k.tipo_website,
      contato: k.contato,
    })),
  };
}
