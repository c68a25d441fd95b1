// ReceitaWS's shape (GET /v1/cnpj/{cnpj}). ReceitaWS is closed source: each rule below comes from
// captured answers and client models, cited in docs/compat.md §5; where they say nothing the rule
// is our choice, marked "uncertain" here and there. Errors are HTTP 200 with status "ERROR", as
// upstream answers them.
import { formatCnpj, normalizeCnpj } from '../cnpj.ts';
import {
  CODE_WIDTH,
  MATRIZ_FILIAL,
  PORTE,
  SITUACAO_CADASTRAL,
  codeDescription,
  codeNumber,
  codeText,
  collapse,
  digitsOnly,
  domainText,
  isoDate,
  moneyText,
  optionText,
  text,
} from '../company/codes.ts';
import { cepText, secondaryCnaes } from '../company/map.ts';
import type { RegistryInfo } from '../registry/reader.ts';
import type {
  ReceitawsAtividade,
  ReceitawsBody,
  ReceitawsError,
  ReceitawsOpcao,
  ReceitawsSocio,
} from './receitaws-schema.ts';
import type { CompatContext, CompatRows } from './rows.ts';
import type { CompatAnswer, CompatParse, CompatShape } from './shape.ts';

type Code = number | string | null;

const SITUACAO_BAIXADA = 8;

/** `20130617` → `17/06/2013`; "" for NULL and impossible dates (every capture writes "" for none). */
export function brDate(v: Code): string {
  const iso = isoDate(v);
  return iso === null ? '' : `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** `70836900` → `70.836-900` (gem README: "CEP no formato 00.000-000"); anything else as stored. */
export function cepMasked(v: string | number | null): string {
  const t = cepText(v);
  return t.length === 8 && /^\d{8}$/.test(t) ? `${t.slice(0, 2)}.${t.slice(2, 5)}-${t.slice(5)}` : t;
}

/** `6204000` → `62.04-0-00`, the captures' CNAE format. */
export function cnaeCode(code7: string): string {
  return code7.length === 7
    ? `${code7.slice(0, 2)}.${code7.slice(2, 4)}-${code7.slice(4, 5)}-${code7.slice(5)}`
    : code7;
}

/**
 * One phone as the captures print it: `(61) 2021-8000`, the hyphen before the last four digits
 * (uncertain for 9-digit mobiles: `(11) 99999-9999`). Without an area code, the number alone
 * (uncertain). "" without a number.
 */
export function phoneText(ddd: string | number | null, number: string | number | null): string {
  const n = digitsOnly(number);
  if (n === '') return '';
  const body = n.length > 4 ? `${n.slice(0, -4)}-${n.slice(-4)}` : n;
  const d = digitsOnly(ddd);
  return d === '' ? body : `(${d}) ${body}`;
}

/** Telephone 1, telephone 2 and fax, those present, joined by " / " (2019 and 2024 captures). */
export function telefone(e: CompatRows['establishment']): string {
  let out = phoneText(e.ddd_1, e.telefone_1);
  for (const p of [phoneText(e.ddd_2, e.telefone_2), phoneText(e.ddd_fax, e.fax)]) {
    if (p !== '') out = out === '' ? p : `${out} / ${p}`;
  }
  return out;
}

/** `2062` → `206-2 - Sociedade Empresária Limitada`; the formatted code alone when the table lacks it. */
export function naturezaText(v: Code, naturezas: ReadonlyMap<number, string>): string {
  const code = codeText(v, CODE_WIDTH.natureza);
  if (code === '') return '';
  const masked = code.length === 4 ? `${code.slice(0, 3)}-${code.slice(3)}` : code;
  const n = codeNumber(v);
  const desc = n === null ? undefined : naturezas.get(n);
  return desc === undefined ? masked : `${masked} - ${desc}`;
}

/** A qualification as `49-Sócio-Administrador` (captures); the code alone when the table lacks it. */
export function qualText(v: Code, qualificacoes: ReadonlyMap<number, string>): string {
  const code = codeText(v, CODE_WIDTH.qualificacao);
  if (code === '') return '';
  const n = codeNumber(v);
  const desc = n === null ? undefined : qualificacoes.get(n);
  return desc === undefined ? code : `${code}-${desc}`;
}

/**
 * Every word's first letter upper case, the rest lower case: the December 2024 capture's
 * "Extinção Por Encerramento Liquidação Voluntária" where the dump's Motivos says
 * "EXTINCAO POR ENCERRAMENTO LIQUIDACAO VOLUNTARIA". The accents are ReceitaWS's own and cannot be
 * derived from the dump (a difference kept, docs/compat.md §5).
 */
export function titleCase(s: string): string {
  let out = '';
  let start = true;
  for (const ch of s.toLowerCase()) {
    out += start ? ch.toUpperCase() : ch;
    start = ch === ' ';
  }
  return out;
}

// Title-cased motivos, per code table (a snapshot's tables live as long as it is served).
const motivoTitles = new WeakMap<ReadonlyMap<number, string>, Map<number, string>>();

/** "" for no reason (code 0, the active companies' "SEM MOTIVO") and for none given. */
export function motivoText(v: Code, motivos: ReadonlyMap<number, string>): string {
  const n = codeNumber(v);
  if (n === 0 || v === null) return '';
  if (n === null) return titleCase(codeText(v, CODE_WIDTH.motivo));
  let titles = motivoTitles.get(motivos);
  if (titles === undefined) motivoTitles.set(motivos, (titles = new Map()));
  let t = titles.get(n);
  if (t === undefined) titles.set(n, (t = titleCase(codeDescription(motivos, n, CODE_WIDTH.motivo))));
  return t;
}

const NO_ACTIVITY = 'Não informada';
const NONE_CODE = '00.00-0-00';
// The captured answers of BAIXADA companies mask the main activity (Dec 2024 capture and others).
const BAIXADA_TEXT = '********';

function atividade(n: number, cnaes: ReadonlyMap<number, string>): ReceitawsAtividade {
  // Uncertain: a code missing from the month's table gets an empty text.
  return { code: cnaeCode(codeText(n, CODE_WIDTH.cnae)), text: cnaes.get(n) ?? '' };
}

/** Main activity: masked for BAIXADA; the "Não informada" placeholder when the row has none (uncertain). */
export function atividadePrincipal(
  e: CompatRows['establishment'],
  cnaes: ReadonlyMap<number, string>,
): ReceitawsAtividade[] {
  if (codeNumber(e.situacao_cadastral) === SITUACAO_BAIXADA) return [{ code: NONE_CODE, text: BAIXADA_TEXT }];
  const n = codeNumber(e.cnae_fiscal);
  return n === null ? [{ code: NONE_CODE, text: NO_ACTIVITY }] : [atividade(n, cnaes)];
}

/**
 * Secondary activities in the dump's order; none → the "Não informada" placeholder (every capture,
 * 2018–2024). Not masked for BAIXADA (uncertain: the one BAIXADA capture had none to show).
 */
export function atividadesSecundarias(list: string | null, cnaes: ReadonlyMap<number, string>): ReceitawsAtividade[] {
  const codes = secondaryCnaes(list);
  return codes.length === 0 ? [{ code: NONE_CODE, text: NO_ACTIVITY }] : codes.map((n) => atividade(n, cnaes));
}

/** A partner: key order of the May 2024 capture (nome, qual, pais_origem, nome_rep_legal, qual_rep_legal). */
export function socio(p: CompatRows['partners'][number], ctx: CompatContext): ReceitawsSocio {
  const t = ctx.codeTables;
  const s: ReceitawsSocio = { nome: collapse(p.nome), qual: qualText(p.qualificacao, t.qualificacoes) };
  // "Disponível apenas para sócios estrangeiros" (gem README): the dump gives a country only to them.
  if (p.pais !== null) s.pais_origem = codeDescription(t.paises, p.pais, CODE_WIDTH.pais);
  // "Disponível apenas para sócios com representantes" (gem README); the dump's "none" is an empty name.
  if (p.representante_nome !== null && p.representante_nome !== '') {
    s.nome_rep_legal = collapse(p.representante_nome);
    s.qual_rep_legal = qualText(p.representante_qualificacao, t.qualificacoes);
  }
  return s;
}

interface Stamps {
  /** The body's ultima_atualizacao: when this server imported the month. */
  readonly imported: string;
  /** simples/simei.ultima_atualizacao: the month's extraction date at 23:59:59.000Z. */
  readonly data: string;
}

let lastInfo: RegistryInfo | null = null;
let lastStamps: Stamps | null = null;

/**
 * Upstream's ultima_atualizacao is when it last read the record (`2024-12-25T07:47:55.622Z`), and
 * simples.ultima_atualizacao the Receita's data date at 23:59:59.000Z (`2024-12-14T23:59:59.000Z`,
 * the extraction date D41214 of that month's Simples file). Ours: the import time, and the
 * month's extraction date (the import's UTC date when the member names carry none).
 */
export function stamps(info: RegistryInfo): Stamps {
  if (info === lastInfo && lastStamps !== null) return lastStamps;
  const t = Date.parse(info.importedAt);
  const imported = Number.isNaN(t) ? info.importedAt : new Date(t).toISOString();
  const day = info.extracted ?? imported.slice(0, 10);
  lastStamps = { imported, data: `${day}T23:59:59.000Z` };
  lastInfo = info;
  return lastStamps;
}

/**
 * simples and simei: null without a Simples row for the base (uncertain: no capture shows that
 * case); dates "" when none.
 */
function opcoes(s: CompatRows['simples'], data: string): { simples: ReceitawsOpcao; simei: ReceitawsOpcao } {
  if (s === null) return { simples: null, simei: null };
  return {
    simples: {
      optante: optionText(s.opcao_simples) === 'SIM',
      data_opcao: brDate(s.data_opcao_simples),
      data_exclusao: brDate(s.data_exclusao_simples),
      ultima_atualizacao: data,
    },
    simei: {
      optante: optionText(s.opcao_mei) === 'SIM',
      data_opcao: brDate(s.data_opcao_mei),
      data_exclusao: brDate(s.data_exclusao_mei),
      ultima_atualizacao: data,
    },
  };
}

/** The 200 body, keys in the December 2024 capture's order. */
export function receitawsBody(rows: CompatRows, ctx: CompatContext): ReceitawsBody {
  const e = rows.establishment;
  const c = rows.company;
  const t = ctx.codeTables;
  const st = stamps(ctx.info);
  const tipoLogradouro = text(e.tipo_logradouro);
  const logradouro = text(e.logradouro);
  // Uncertain: no capture shows a missing capital; clients parse it as a number.
  const capital = c === null ? '' : moneyText(c.capital_social_cents);
  const { simples, simei } = opcoes(rows.simples, st.data);
  return {
    abertura: brDate(e.data_inicio_atividade),
    situacao: domainText(SITUACAO_CADASTRAL, e.situacao_cadastral),
    tipo: domainText(MATRIZ_FILIAL, e.matriz_filial, 1),
    nome: c === null ? '' : collapse(c.razao_social),
    porte: c === null ? '' : domainText(PORTE, c.porte),
    natureza_juridica: c === null ? '' : naturezaText(c.natureza_juridica, t.naturezas),
    // The dump's full street type (Dec 2024 capture), not the card's abbreviation (older answers).
    logradouro:
      tipoLogradouro === '' ? logradouro : logradouro === '' ? tipoLogradouro : `${tipoLogradouro} ${logradouro}`,
    numero: text(e.numero),
    complemento: text(e.complemento),
    municipio: codeDescription(t.municipios, e.municipio, CODE_WIDTH.municipio),
    bairro: text(e.bairro),
    uf: text(e.uf),
    cep: cepMasked(e.cep),
    email: text(e.email),
    telefone: telefone(e),
    data_situacao: brDate(e.data_situacao_cadastral),
    motivo_situacao: motivoText(e.motivo_situacao_cadastral, t.motivos),
    cnpj: formatCnpj(e.cnpj ?? ''),
    ultima_atualizacao: st.imported,
    status: 'OK',
    fantasia: text(e.nome_fantasia),
    efr: c === null ? '' : text(c.ente_federativo),
    situacao_especial: text(e.situacao_especial),
    data_situacao_especial: brDate(e.data_situacao_especial),
    atividade_principal: atividadePrincipal(e, t.cnaes),
    atividades_secundarias: atividadesSecundarias(e.cnaes_secundarios, t.cnaes),
    capital_social: capital === '' ? '0.00' : capital,
    qsa: rows.partners.map((p) => socio(p, ctx)),
    simples,
    simei,
    extra: {},
    billing: { free: true, database: true },
  };
}

const error = (message: string): string => JSON.stringify({ status: 'ERROR', message } satisfies ReceitawsError);

/** Gem README (digital-heroes/receitaws): the two messages clients compare, both with HTTP 200. */
const INVALID: CompatAnswer = { status: 200, body: error('CNPJ inválido') };
const NOT_FOUND: CompatAnswer = { status: 200, body: error('CNPJ rejeitado pela Receita Federal') };
const JSON_HEADERS = Object.freeze({ 'Content-Type': 'application/json; charset=utf-8' });

export const receitaWsShape: CompatShape = {
  name: 'receitaws',
  parse(raw: string): CompatParse {
    const cnpj = normalizeCnpj(raw);
    return cnpj === null ? { invalid: INVALID } : { cnpj };
  },
  found(rows: CompatRows, ctx: CompatContext): CompatAnswer {
    return { status: 200, body: JSON.stringify(receitawsBody(rows, ctx)) };
  },
  notFound(): CompatAnswer {
    return NOT_FOUND;
  },
  // Our own refusals keep our HTTP status: a client reading only `status` sees "ERROR" and stops.
  refused(status: number, _code: string, message: string): CompatAnswer {
    return { status, body: error(message) };
  },
  headers(): Readonly<Record<string, string>> {
    return JSON_HEADERS;
  },
};
