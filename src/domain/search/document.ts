// The FTS document of one establishment and the filter values derived from its rows: the build
// writes these (importer/search), the queries ask for the same terms (match.ts). Each rule here
// is the meaning of a filter (docs/search.md); the tests check them against plain SQL over the
// snapshot tables.
import { normalizeText } from './normalize.ts';
import { capitalBucket, cep8, cnae7, intCode, isUf, term, ymdOf } from './terms.ts';

/** The snapshot columns a document is made of (establishment, its company, its Simples row), in this order. */
export const DOCUMENT_COLUMNS = [
  'e.cnpj', 'c.razao_social', 'e.nome_fantasia', 'e.uf', 'e.municipio', 'e.cnae_fiscal', 'e.cnaes_secundarios', 'e.cep',
  'e.situacao_cadastral', 'e.matriz_filial', 'c.natureza_juridica', 'c.porte', 's.opcao_simples', 's.opcao_mei', 'e.email',
  'e.telefone_1', 'e.telefone_2', 'e.data_inicio_atividade', 'c.capital_social_cents',
] as const;

/** What the filters see of one establishment. */
export interface DocumentValues {
  cnpj: string;
  /** Distinct normalised words of the razão social and the nome fantasia. */
  names: string[];
  uf: string | null;
  municipio: number | null;
  /** Primary CNAE, 7 digits. */
  cnae: string | null;
  secondary: string[];
  /** 8 digits. */
  cep: string | null;
  situacao: number | null;
  matrizFilial: number | null;
  natureza: number | null;
  porte: number | null;
  /** `opc_simples` / `opc_mei`: true only for the dump's `S`; `N`, empty and no Simples row are false. */
  simples: boolean;
  mei: boolean;
  /** `has_email`: the response's `email` is not empty. */
  email: boolean;
  /** `has_telefone`: either of the two phone numbers (not the fax) holds a digit. */
  telefone: boolean;
  /** yyyymmdd */
  inicio: number | null;
  capitalCents: number | null;
}

const hasDigits = (v: unknown) => (typeof v === 'string' ? /\d/.test(v) : v !== null && v !== undefined);

/** The secondary CNAEs of a stored list, as distinct 7-digit strings (garbage entries skipped). */
export function secondaryCodes(list: unknown): string[] {
  if (typeof list !== 'string') return [];
  const out: string[] = [];
  for (const part of list.split(',')) {
    if (/^\d{1,7}$/.test(part)) {
      const c = part.padStart(7, '0');
      if (!out.includes(c)) out.push(c);
    }
  }
  return out;
}

/** Capital social in cents as a number (huge values lose precision, not their bucket), or null. */
export function capitalCents(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : null;
  if (typeof v === 'bigint') return v >= 0n ? Number(v) : null;
  return null;
}

/** Distinct words of the two names, in order (names are short: a list beats a Set). */
function nameWords(razao: unknown, fantasia: unknown): string[] {
  const text = normalizeText(`${typeof razao === 'string' ? razao : ''} ${typeof fantasia === 'string' ? fantasia : ''}`);
  if (text === '') return [];
  const out: string[] = [];
  for (const w of text.split(' ')) if (!out.includes(w)) out.push(w);
  return out;
}

/** A row of DOCUMENT_COLUMNS (as a raw array) → the values the filters see. */
export function documentValues(r: readonly unknown[]): DocumentValues {
  const email = r[14];
  return {
    cnpj: r[0] as string,
    names: nameWords(r[1], r[2]),
    uf: isUf(r[3]) ? r[3] : null,
    municipio: intCode(r[4]),
    cnae: cnae7(r[5]),
    secondary: secondaryCodes(r[6]),
    cep: cep8(r[7]),
    situacao: intCode(r[8]),
    matrizFilial: intCode(r[9]),
    natureza: intCode(r[10]),
    porte: intCode(r[11]),
    simples: r[12] === 'S',
    mei: r[13] === 'S',
    email: typeof email === 'string' && email.trim() !== '',
    telefone: hasDigits(r[15]) || hasDigits(r[16]),
    inicio: ymdOf(r[17]),
    capitalCents: capitalCents(r[18]),
  };
}

/** The document text: the name words, then one term per filter value. */
export function documentText(v: DocumentValues): string {
  const t = v.names.slice();
  if (v.uf !== null) t.push(term.uf(v.uf));
  if (v.municipio !== null) t.push(term.municipio(v.municipio));
  if (v.cnae !== null) t.push(term.cnae(v.cnae.slice(0, 2), false), term.cnae(v.cnae, false));
  let divisions = '';
  for (const code of v.secondary) {
    const div = code.slice(0, 2);
    if (!divisions.includes(`|${div}`)) {
      divisions += `|${div}`;
      t.push(term.cnae(div, true));
    }
    t.push(term.cnae(code, true));
  }
  if (v.cep !== null) t.push(term.cep(v.cep.slice(0, 2)), term.cep(v.cep.slice(0, 5)), term.cep(v.cep));
  if (v.situacao !== null) t.push(term.situacao(v.situacao));
  if (v.matrizFilial !== null) t.push(term.matrizFilial(v.matrizFilial));
  if (v.natureza !== null) t.push(term.natureza(v.natureza));
  if (v.porte !== null) t.push(term.porte(v.porte));
  t.push(term.simples(v.simples), term.mei(v.mei), term.email(v.email), term.telefone(v.telefone));
  if (v.inicio !== null) t.push(term.inicio(Math.floor(v.inicio / 10000)), term.inicio(Math.floor(v.inicio / 100)));
  if (v.capitalCents !== null) t.push(term.capital(capitalBucket(v.capitalCents)));
  return t.join(' ');
}
