// A second, independent implementation of the ReceitaWS answer, for the golden test: the rules of
// docs/compat.md §5 written straight over a month's raw CSV strings (test/compat/raw-month.ts).
// ReceitaWS is closed source, so its "own code" is not available: each rule cites the capture or
// client model it comes from, and the rules §5 marks uncertain are the choices documented there.
// Nothing here comes from src/domain/compat or src/domain/company: only which establishments
// exist (the check-digit rule the importer applies) is this project's own.
import { isValidCnpj } from '../../../src/domain/cnpj.ts';
import type { RawMonth, RawRow } from '../raw-month.ts';

/** What the snapshot says about itself, as the reference needs it. */
export interface ReferenceInfo {
  /** When the month was imported (ISO 8601). */
  importedAt: string;
  /** The extraction date of the member names (`2026-09-13`), or null. */
  extracted: string | null;
}

type Body = Record<string, unknown>;

// Fixed domains of the Receita layout, as the captures print them ("ATIVA", "BAIXADA", "MATRIZ",
// "MICRO EMPRESA", "DEMAIS").
const SITUACAO: Record<number, string> = { 1: 'NULA', 2: 'ATIVA', 3: 'SUSPENSA', 4: 'INAPTA', 8: 'BAIXADA' };
const TIPO: Record<number, string> = { 1: 'MATRIZ', 2: 'FILIAL' };
const PORTE: Record<number, string> = {
  0: 'NÃO INFORMADO',
  1: 'MICRO EMPRESA',
  3: 'EMPRESA DE PEQUENO PORTE',
  5: 'DEMAIS',
};

const isDigits = (s: string) => /^\d+$/.test(s);
const pad = (s: string, width: number) => (isDigits(s) ? s.padStart(width, '0') : s);
const domain = (table: Record<number, string>, s: string) => (s === '' ? '' : (table[Number(s)] ?? s));

/** gem README "dd/mm/aaaa"; "" for none (every capture): the dump writes none as empty or zeros. */
function date(s: string): string {
  if (s === '' || /^0+$/.test(s)) return '';
  if (/^\d{8}$/.test(s)) return `${s.slice(6, 8)}/${s.slice(4, 6)}/${s.slice(0, 4)}`;
  return s;
}

/** gem README "CEP no formato 00.000-000". */
const cep = (s: string) => (/^\d{8}$/.test(s) ? `${s.slice(0, 2)}.${s.slice(2, 5)}-${s.slice(5)}` : s);

/** gem README "CNPJ no formato 00.000.000/0000-00". */
const cnpjMask = (c: string) => `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;

/** Captures: "(11) 3703-7675"; several joined " / " (2019 capture; 2024 capture with the fax). */
function phones(row: RawRow): string {
  const out: string[] = [];
  for (const [d, n] of [
    [21, 22],
    [23, 24],
    [25, 26],
  ] as const) {
    const number = row[n]!;
    if (number === '') continue;
    const body = number.length > 4 ? `${number.slice(0, -4)}-${number.slice(-4)}` : number;
    out.push(row[d] === '' ? body : `(${row[d]}) ${body}`);
  }
  return out.join(' / ');
}

/** gem README "Valor do capital social no formato 0.00"; the dump writes `1061004829,23`. */
function capital(s: string | undefined): string {
  if (s === undefined || s === '') return '0.00';
  const [int = '', dec = ''] = s.split(',');
  return `${int.replace(/^0+(?=\d)/, '')}.${dec.padEnd(2, '0')}`;
}

/** Dec 2024 capture: "Extinção Por Encerramento Liquidação Voluntária" — every word capitalised. */
const title = (s: string) =>
  s
    .toLowerCase()
    .split(' ')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');

/** Captures: `{code: "64.22-1-00", text}`; "00.00-0-00" placeholders for none and for BAIXADA. */
function activity(code: string, m: RawMonth) {
  const c = pad(code, 7);
  return { code: `${c.slice(0, 2)}.${c.slice(2, 4)}-${c.slice(4, 5)}-${c.slice(5)}`, text: m.cnaes.get(c) ?? '' };
}
const NONE = (text: string) => [{ code: '00.00-0-00', text }];

/** Captures: `"49-Sócio-Administrador"`, `"05-Administrador"`. */
function qual(code: string, m: RawMonth): string {
  if (code === '') return '';
  const c = pad(code, 2);
  const d = m.qualificacoes.get(c);
  return d === undefined ? c : `${c}-${d}`;
}

/** May 2024 capture: nome, qual, then pais_origem and the representative pair only when present. */
function partner(p: RawRow, m: RawMonth): Body {
  const out: Body = { nome: p[2], qual: qual(p[4]!, m) };
  if (p[6] !== '') out.pais_origem = m.paises.get(pad(p[6]!, 3)) ?? pad(p[6]!, 3);
  if (p[8] !== '') {
    out.nome_rep_legal = p[8];
    out.qual_rep_legal = qual(p[9]!, m);
  }
  return out;
}

/** Dec 2024 capture and funccloud test: `{optante, data_opcao, data_exclusao, ultima_atualizacao}`. */
const option = (flag: string, from: string, to: string, stamp: string) => ({
  optante: flag === 'S',
  data_opcao: date(from),
  data_exclusao: date(to),
  ultima_atualizacao: stamp,
});

/**
 * Every establishment of the month (valid rows only; the last row of a CNPJ wins, as the dump's
 * duplicates are read) → the body ReceitaWS's documented rules give, keys in the December 2024
 * capture's order (emanoelCarvalho/consulta-cnpj README.md @ 1fde8a01).
 */
export function receitawsReference(m: RawMonth, info: ReferenceInfo): Map<string, Body> {
  const companies = new Map<string, RawRow>();
  for (const r of m.companies) if (r.length === 7) companies.set(r[0]!, r);
  const simples = new Map<string, RawRow>();
  for (const r of m.simples) if (r.length === 7) simples.set(r[0]!, r);
  const partners = new Map<string, RawRow[]>();
  const seen = new Set<string>();
  for (const r of m.partners) {
    if (r.length !== 11) continue;
    const key = r.join('\u0001');
    if (seen.has(key)) continue; // the dump repeats some partner rows whole
    seen.add(key);
    partners.set(r[0]!, [...(partners.get(r[0]!) ?? []), r]);
  }
  const establishments = new Map<string, RawRow>();
  for (const r of m.establishments) {
    if (r.length !== 30) continue;
    const cnpj = r[0]! + r[1]! + r[2]!;
    if (isValidCnpj(cnpj)) establishments.set(cnpj, r);
  }

  // ultima_atualizacao: when the data was read (captures: a timestamp with milliseconds);
  // simples: the Receita's extraction date at 23:59:59.000Z (Dec 2024 capture, D41214 → 2024-12-14).
  const updated = new Date(info.importedAt).toISOString();
  const stamp = `${info.extracted ?? updated.slice(0, 10)}T23:59:59.000Z`;

  const out = new Map<string, Body>();
  for (const [cnpj, e] of establishments) {
    const c = companies.get(e[0]!);
    const s = simples.get(e[0]!);
    const natureza = c === undefined || c[2] === '' ? '' : pad(c[2]!, 4);
    const motivo = e[7] === '' || Number(e[7]) === 0 ? '' : pad(e[7]!, 2);
    const secondary = e[12]!.split(',').filter((x) => x !== '');
    out.set(cnpj, {
      abertura: date(e[10]!),
      situacao: domain(SITUACAO, e[5]!),
      tipo: domain(TIPO, e[3]!),
      nome: c?.[1] ?? '',
      porte: c === undefined ? '' : domain(PORTE, c[5]!),
      // Captures: "206-2 - Sociedade Empresária Limitada".
      natureza_juridica:
        natureza === ''
          ? ''
          : m.naturezas.has(natureza)
            ? `${natureza.slice(0, 3)}-${natureza.slice(3)} - ${m.naturezas.get(natureza)}`
            : `${natureza.slice(0, 3)}-${natureza.slice(3)}`,
      // Dec 2024 capture: the street type in full, then the name ("AVENIDA CAPITAO LUIS ANTONIO PIMENTA").
      logradouro: [e[13], e[14]].filter((x) => x !== '').join(' '),
      numero: e[15],
      complemento: e[16],
      municipio: m.municipios.get(pad(e[20]!, 4)) ?? pad(e[20]!, 4),
      bairro: e[17],
      uf: e[19],
      cep: cep(e[18]!),
      email: e[27],
      telefone: phones(e),
      data_situacao: date(e[6]!),
      motivo_situacao: motivo === '' ? '' : title(m.motivos.get(motivo) ?? motivo),
      cnpj: cnpjMask(cnpj),
      ultima_atualizacao: updated,
      status: 'OK',
      fantasia: e[4],
      efr: c?.[6] ?? '',
      situacao_especial: e[28],
      data_situacao_especial: date(e[29]!),
      atividade_principal:
        Number(e[5]) === 8 ? NONE('********') : e[11] === '' ? NONE('Não informada') : [activity(e[11]!, m)],
      atividades_secundarias: secondary.length === 0 ? NONE('Não informada') : secondary.map((x) => activity(x, m)),
      capital_social: capital(c?.[4]),
      qsa: (partners.get(e[0]!) ?? []).map((p) => partner(p, m)),
      simples: s === undefined ? null : option(s[1]!, s[2]!, s[3]!, stamp),
      simei: s === undefined ? null : option(s[4]!, s[5]!, s[6]!, stamp),
      extra: {},
      billing: { free: true, database: true },
    });
  }
  return out;
}
