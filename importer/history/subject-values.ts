// A feed subject's row (storage/history/subjects.ts) from the snapshot columns it is made of: one
// home for the rules, whichever way the rows were read (gathered-subjects.ts, subjects.ts). The
// flags follow the search's own (importer/search/document-sql.ts): an e-mail is a non-blank text,
// a telefone either of the two numbers.
import type { SubjectRow } from '../../src/storage/history/subjects.ts';
import { cepText } from '../../src/domain/company/map.ts';
import { normalizeText } from '../../src/domain/search/normalize.ts';

/** The establishment columns a subject reads, as the snapshot stores them. */
export const SUBJECT_EST_COLUMNS = [
  'uf',
  'municipio',
  'cnae_fiscal',
  'situacao_cadastral',
  'matriz_filial',
  'cep',
  'email',
  'telefone_1',
  'telefone_2',
  'data_inicio_atividade',
  'cnaes_secundarios',
  'nome_fantasia',
] as const;
/** The company columns a subject reads. */
export const SUBJECT_COMPANY_COLUMNS = ['natureza_juridica', 'porte', 'capital_social_cents', 'razao_social'] as const;

export type SubjectEstablishment = Record<(typeof SUBJECT_EST_COLUMNS)[number], unknown>;
export type SubjectCompany = Record<(typeof SUBJECT_COMPANY_COLUMNS)[number], unknown>;
/** Simples and MEI options as 0/1. */
export type SubjectSimples = { simples: unknown; mei: unknown };

const NO_ESTABLISHMENT = Object.fromEntries(SUBJECT_EST_COLUMNS.map((c) => [c, null])) as SubjectEstablishment;
const NO_COMPANY = Object.fromEntries(SUBJECT_COMPANY_COLUMNS.map((c) => [c, null])) as SubjectCompany;

const num = (v: unknown) => (typeof v === 'number' ? v : null);
/**
 * Capital in cents; one past 2^53 cents, stored as the TEXT of its digits, as the nearest number:
 * the feed only compares it with bounds that are numbers themselves (feed.ts).
 */
const amount = (v: unknown) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : num(v));
const text = (v: unknown) => (typeof v === 'string' ? v : null);
/** Non-blank, as SQL's trim() sees it (spaces). */
const hasText = (v: unknown) => (typeof v === 'string' && v.replace(/^ +| +$/g, '') !== '' ? 1 : 0);

/** The words of the two names, normalised, or null when neither has one. */
export function subjectNames(razao: unknown, fantasia: unknown): string | null {
  const t = normalizeText(`${text(razao) ?? ''} ${text(fantasia) ?? ''}`);
  return t === '' ? null : t;
}

/** The subject of `cnpj`: its establishment's, company's and Simples rows of one month (absent: null/0). */
export function subjectRow(
  cnpj: string,
  kinds: number,
  company: number,
  e: SubjectEstablishment | undefined,
  c: SubjectCompany | undefined,
  s: SubjectSimples | undefined,
): SubjectRow {
  const est = e ?? NO_ESTABLISHMENT;
  const co = c ?? NO_COMPANY;
  const cep = cepText(est.cep as string | number | null);
  return {
    cnpj,
    kinds,
    company,
    uf: text(est.uf),
    municipio: num(est.municipio),
    cnae: num(est.cnae_fiscal),
    situacao: num(est.situacao_cadastral),
    matriz: num(est.matriz_filial),
    natureza: num(co.natureza_juridica),
    porte: num(co.porte),
    simples: s ? Number(s.simples) : 0,
    mei: s ? Number(s.mei) : 0,
    cep: cep === '' ? null : cep,
    email: e ? hasText(est.email) : null,
    telefone: e ? (est.telefone_1 != null || est.telefone_2 != null ? 1 : 0) : null,
    inicio: num(est.data_inicio_atividade),
    capital: amount(co.capital_social_cents),
    cnaes: text(est.cnaes_secundarios),
    names: subjectNames(co.razao_social, est.nome_fantasia),
  };
}
