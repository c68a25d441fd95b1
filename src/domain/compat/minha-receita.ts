// Minha Receita's shape (cuducos/minha-receita @ e04fefb74d55e2af25671641e447a023125744ea): an
// establishment as its transform writes it (transform/company.go, lookups.go, bases.go,
// partners.go, taxes.go, badger.go) and its API serves it (api/api.go): PostgreSQL jsonb text.
// docs/compat.md §2 gives the rule behind each field and what differs from the upstream.
import { checkDigits, formatCnpj } from '../cnpj.ts';
import type { CodeTables } from '../../storage/snapshots/code-tables.ts';
import { MATRIZ_FILIAL, PORTE, SITUACAO_CADASTRAL, codeNumber, digitsOnly, isoDate, text } from '../company/codes.ts';
import { cepText, secondaryCnaes } from '../company/map.ts';
import { capitalFloat32 } from './float32.ts';
import { jsonbWriter } from './jsonb-text.ts';
import {
  MinhaReceitaCnaeSchema,
  MinhaReceitaCompanySchema,
  MinhaReceitaPartnerSchema,
  MinhaReceitaRegimeSchema,
  type MinhaReceitaCnae,
  type MinhaReceitaCompany,
  type MinhaReceitaPartner,
  type MinhaReceitaRegime,
} from './minha-receita-schema.ts';
import type { CompatContext, CompatRows } from './rows.ts';
import type { CompatAnswer, CompatParse, CompatShape } from './shape.ts';

/**
 * Country codes the transform adds where the month's Paises lacks them (transform/lookups.go
 * `newLookups`: codes the Receita uses without listing them).
 */
const EXTRA_COUNTRIES: readonly (readonly [number, string])[] = [
  [15, 'Aland, Ilhas'],
  [150, 'Canal, Ilhas do (Guernsey)'],
  [151, 'Canárias, Ilhas'],
  [200, 'Curaçao'],
  [321, 'Guernsey'],
  [359, 'Ilha de Man'],
  [367, 'Inglaterra'],
  [393, 'Jersey'],
  [449, 'Macedônia'],
  [452, 'Madeira, Ilha da'],
  [498, 'Montenegro'],
  [578, 'Palestina'],
  [678, 'Saint Kitts e Nevis'],
  [699, 'Sint Maarten'],
  [737, 'Sérvia'],
  [994, 'A Designar'],
];

/** Age bands in the upstream's own words, typo included (transform/partners.go `faixaEtaria`). */
const FAIXA_ETARIA: ReadonlyMap<number, string> = new Map([
  [0, 'Não se aplica'],
  [1, 'para os intervalos entre 0 a 12 anos'],
  [2, 'Entre 13 a 20 ano'],
  [3, 'Entre 21 a 30 anos'],
  [4, 'Entre 31 a 40 anos'],
  [5, 'Entre 41 a 50 anos'],
  [6, 'Entre 51 a 60 anos'],
  [7, 'Entre 61 a 70 anos'],
  [8, 'Entre 71 a 80 anos'],
  [9, 'Maiores de 80 anos'],
]);

/** The month's countries plus the hand-added ones, built once per snapshot's code tables. */
const countriesOf = new WeakMap<CodeTables, ReadonlyMap<number, string>>();
function countries(tables: CodeTables): ReadonlyMap<number, string> {
  let m = countriesOf.get(tables);
  if (m === undefined) {
    const all = new Map(tables.paises);
    for (const [code, name] of EXTRA_COUNTRIES) if (!all.has(code)) all.set(code, name);
    m = all;
    countriesOf.set(tables, m);
  }
  return m;
}

type Code = number | string | null;
const described = (table: ReadonlyMap<number, string>, n: number | null): string | null =>
  n === null ? null : (table.get(n) ?? null);
/** S → true, N → false, anything else null (transform/cast.go `toBool`, case-insensitive). */
function flag(v: string | null | undefined): boolean | null {
  const t = v?.toUpperCase();
  return t === 'S' ? true : t === 'N' ? false : null;
}
/** ddd + number as the dump splits them (company.go: the two fields concatenated). */
const phone = (ddd: Code, number: Code) => digitsOnly(ddd) + digitsOnly(number);

// The Badger key a partner row is stored under (transform/kv.go `newKVItem`, `checksumFor`):
// the row's fields joined with no separator, followed by MD5("") (h.Sum(b) appends the digest of
// nothing to b), hex-encoded. partnersOf (badger.go) reads them back by prefix, so qsa comes in
// bytewise order of that joined row; identical rows share one key. Our rows are typed: each field
// is written back at its published width. Hex keeps the bytes' order, so comparing the joined
// text compares the keys, except where one row's text is a prefix of another's: there the
// digest's first byte, 0xD4, meets the longer row's next UTF-8 byte.
type PartnerRow = CompatRows['partners'][number];
const published = (v: Code, width: number) =>
  v === null ? '' : typeof v === 'number' ? String(v).padStart(width, '0') : v;
function partnerKey(p: PartnerRow): string {
  return (
    published(p.identificador, 1) +
    text(p.nome) +
    text(p.cnpj_cpf) +
    published(p.qualificacao, 2) +
    published(p.data_entrada, 8) +
    published(p.pais, 3) +
    text(p.representante_cpf) +
    text(p.representante_nome) +
    published(p.representante_qualificacao, 2) +
    published(p.faixa_etaria, 1)
  );
}
/** Bytewise order of `key + MD5("")` in UTF-8 (UTF-16 order is code point order for our text). */
function byPartnerKey(a: string, b: string): number {
  if (a === b) return 0;
  if (b.startsWith(a)) return b.charCodeAt(a.length) < 0x500 ? 1 : -1;
  if (a.startsWith(b)) return a.charCodeAt(b.length) < 0x500 ? -1 : 1;
  return a < b ? -1 : 1;
}

function mapPartner(p: PartnerRow, tables: CodeTables, paises: ReadonlyMap<number, string>): MinhaReceitaPartner {
  const pais = codeNumber(p.pais);
  const known = pais !== null && paises.has(pais);
  const faixa = codeNumber(p.faixa_etaria);
  const qualificacao = codeNumber(p.qualificacao);
  const representante = codeNumber(p.representante_qualificacao);
  return {
    pais: known ? paises.get(pais)! : null,
    nome_socio: text(p.nome),
    codigo_pais: known ? pais : null,
    faixa_etaria: described(FAIXA_ETARIA, faixa),
    cnpj_cpf_do_socio: text(p.cnpj_cpf),
    qualificacao_socio: described(tables.qualificacoes, qualificacao),
    codigo_faixa_etaria: faixa,
    data_entrada_sociedade: isoDate(p.data_entrada),
    identificador_de_socio: codeNumber(p.identificador),
    cpf_representante_legal: text(p.representante_cpf),
    nome_representante_legal: text(p.representante_nome),
    codigo_qualificacao_socio: qualificacao,
    qualificacao_representante_legal: described(tables.qualificacoes, representante),
    codigo_qualificacao_representante_legal: representante,
  };
}

function qsa(rows: CompatRows, tables: CodeTables, paises: ReadonlyMap<number, string>): MinhaReceitaPartner[] {
  const n = rows.partners.length;
  if (n === 0) return [];
  if (n === 1) return [mapPartner(rows.partners[0]!, tables, paises)];
  const keyed = rows.partners.map((p) => ({ key: partnerKey(p), p }));
  keyed.sort((a, b) => byPartnerKey(a.key, b.key));
  const out: MinhaReceitaPartner[] = [];
  for (let i = 0; i < keyed.length; i++)
    if (i === 0 || keyed[i]!.key !== keyed[i - 1]!.key) out.push(mapPartner(keyed[i]!.p, tables, paises));
  return out;
}

// regime_tributario (transform/taxes.go, badger.go `taxRegimeOf`): the rows keyed by this exact
// CNPJ (keyForTaxRegime of the row's own CNPJ), read in key order (the joined row: ano first, then
// the SCP, the form, the count; identical rows share one key) and sorted by year (sort.Sort, an
// insertion sort at these sizes, so ties keep key order). cnpj_da_scp is null for "" and "0",
// which our snapshot stores as NULL.
// cnpj_da_scp is the file's text: the regime files print CNPJs masked (00.000.000/0000-00); our
// snapshot keeps the 14 characters, so the mask goes back on.
type RegimeRow = CompatRows['regimes'][number];
const scp = (v: string | null) => (v !== null && v.length === 14 ? formatCnpj(v) : v);
const regimeKey = (r: RegimeRow) => `${text(r.cnpj_scp) || '0'}${text(r.forma)}${text(r.escrituracoes)}`;
function regimes(rows: CompatRows, cnpj: string): MinhaReceitaRegime[] {
  const mine: { ano: number; key: string; r: RegimeRow }[] = [];
  for (const r of rows.regimes) if (r.cnpj === cnpj) mine.push({ ano: codeNumber(r.ano) ?? 0, key: regimeKey(r), r });
  if (mine.length === 0) return [];
  mine.sort((a, b) => a.ano - b.ano || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out: MinhaReceitaRegime[] = [];
  for (let i = 0; i < mine.length; i++) {
    const m = mine[i]!;
    if (i > 0 && m.ano === mine[i - 1]!.ano && m.key === mine[i - 1]!.key) continue;
    out.push({
      ano: m.ano,
      cnpj_da_scp: scp(m.r.cnpj_scp),
      forma_de_tributacao: text(m.r.forma),
      quantidade_de_escrituracoes: codeNumber(m.r.escrituracoes) ?? 0,
    });
  }
  return out;
}

/** The empty list's one item: splitting "" on "," gives one empty code, a zero CNAE (lookups.go `cnaes`). */
const NO_CNAE: readonly MinhaReceitaCnae[] = [{ codigo: 0, descricao: '' }];

/** The establishment as Minha Receita's object, keys in jsonb order. */
export function minhaReceitaCompany(rows: CompatRows, ctx: CompatContext): MinhaReceitaCompany {
  const e = rows.establishment;
  const c = rows.company;
  const s = rows.simples;
  const tables = ctx.codeTables;
  const paises = countries(tables);
  const cnpj = e.cnpj ?? '';
  const uf = text(e.uf);
  const abroad = uf === 'EX';

  const pais = codeNumber(e.pais);
  const paisKnown = pais !== null && paises.has(pais);
  // municipio (lookups.go): nothing abroad; the code as given; the name from the month's table,
  // and the IBGE code looked up only once the name was found.
  const codigoMunicipio = abroad ? null : codeNumber(e.municipio);
  const municipio = described(tables.municipios, codigoMunicipio);
  const ibge = municipio === null ? null : ctx.ibge(codigoMunicipio!);
  const cnae = codeNumber(e.cnae_fiscal) ?? 0;
  const secondary = secondaryCnaes(e.cnaes_secundarios);
  const situacao = codeNumber(e.situacao_cadastral);
  const motivo = codeNumber(e.motivo_situacao_cadastral);
  const matrizFilial = codeNumber(e.matriz_filial);
  const porte = c === null ? null : codeNumber(c.porte);
  const natureza = c === null ? null : codeNumber(c.natureza_juridica);
  const capital = c === null || c.capital_social_cents === null ? null : capitalFloat32(c.capital_social_cents);

  return {
    uf,
    cep: cepText(e.cep),
    qsa: qsa(rows, tables, paises),
    cnpj,
    pais: paisKnown ? paises.get(pais)! : null,
    // Upstream's public build writes null (privacy); this project serves the e-mail (issue #30).
    email: text(e.email),
    porte: described(PORTE, porte),
    bairro: text(e.bairro),
    numero: text(e.numero),
    ddd_fax: phone(e.ddd_fax, e.fax),
    municipio,
    logradouro: text(e.logradouro),
    cnae_fiscal: cnae,
    codigo_pais: paisKnown ? pais : null,
    complemento: text(e.complemento),
    codigo_porte: porte,
    razao_social: text(c?.razao_social ?? null),
    // Unmasked: the upstream's --no-privacy output, as this project's API serves it.
    nome_fantasia: text(e.nome_fantasia),
    capital_social: capital,
    ddd_telefone_1: phone(e.ddd_1, e.telefone_1),
    ddd_telefone_2: phone(e.ddd_2, e.telefone_2),
    opcao_pelo_mei: flag(s?.opcao_mei),
    codigo_municipio: codigoMunicipio,
    cnaes_secundarios:
      secondary.length === 0
        ? (NO_CNAE as MinhaReceitaCnae[])
        : secondary.map((n) => ({ codigo: n, descricao: tables.cnaes.get(n) ?? '' })),
    natureza_juridica: described(tables.naturezas, natureza),
    regime_tributario: regimes(rows, cnpj),
    situacao_especial: text(e.situacao_especial),
    opcao_pelo_simples: flag(s?.opcao_simples),
    situacao_cadastral: situacao,
    data_opcao_pelo_mei: s === null ? null : isoDate(s.data_opcao_mei),
    data_exclusao_do_mei: s === null ? null : isoDate(s.data_exclusao_mei),
    cnae_fiscal_descricao: described(tables.cnaes, cnae),
    codigo_municipio_ibge: ibge,
    data_inicio_atividade: isoDate(e.data_inicio_atividade),
    data_situacao_especial: isoDate(e.data_situacao_especial),
    data_opcao_pelo_simples: s === null ? null : isoDate(s.data_opcao_simples),
    data_situacao_cadastral: isoDate(e.data_situacao_cadastral),
    nome_cidade_no_exterior: text(e.nome_cidade_exterior),
    codigo_natureza_juridica: natureza,
    data_exclusao_do_simples: s === null ? null : isoDate(s.data_exclusao_simples),
    motivo_situacao_cadastral: motivo,
    ente_federativo_responsavel: text(c?.ente_federativo ?? null),
    identificador_matriz_filial: matrizFilial,
    qualificacao_do_responsavel: c === null ? null : codeNumber(c.qualificacao_responsavel),
    descricao_situacao_cadastral: described(SITUACAO_CADASTRAL, situacao),
    descricao_tipo_de_logradouro: text(e.tipo_logradouro),
    descricao_motivo_situacao_cadastral: described(tables.motivos, motivo),
    descricao_identificador_matriz_filial: described(MATRIZ_FILIAL, matrizFilial),
  };
}

/**
 * How Minha Receita reads the path (go-cnpj v0.1.2 `IsValid`): every character outside [0-9A-Z]
 * dropped (lower-case letters too), 14 left, both mod-11 digits right (fourteen zeros pass).
 * Null when it refuses; the 400's message shows `Mask(path)`: the path as typed unless it
 * unmasks to 14 characters.
 */
export function minhaReceitaParse(raw: string): { cnpj: string } | { message: string } {
  const u = raw.replace(/[^0-9A-Z]/g, '');
  if (u.length === 14 && checkDigits(u.slice(0, 12)) === u.slice(12)) return { cnpj: u };
  return { message: `CNPJ ${u.length === 14 ? formatCnpj(u) : raw} inválido.` };
}

/** api/api.go `messageResponse`: `{"message":"…"}`, compact; escaped here (the upstream does not). */
const messageBody = (message: string) => `{"message":${JSON.stringify(message)}}`;

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=86400' } as const;
// 405 is written before any Content-Type is set, so Go's net/http sniffs the body: text/plain.
const METHOD_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'max-age=86400' } as const;
// This project's own refusals (token, quota, outage): no upstream answer to copy, and a day in a
// cache would outlive them.
const REFUSAL_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } as const;

/** The answer's writers, compiled from the schema's property order (jsonb's, see the schema). */
const keysOf = (schema: { properties: object }) => Object.keys(schema.properties);
const companyWriter = (style: 'jsonb' | 'compact') =>
  jsonbWriter<MinhaReceitaCompany>(
    keysOf(MinhaReceitaCompanySchema),
    {
      qsa: jsonbWriter(keysOf(MinhaReceitaPartnerSchema), {}, style),
      cnaes_secundarios: jsonbWriter(keysOf(MinhaReceitaCnaeSchema), {}, style),
      regime_tributario: jsonbWriter(keysOf(MinhaReceitaRegimeSchema), {}, style),
    },
    style,
  );
const writeCompany = companyWriter('jsonb');
/** BrasilAPI's text of the same object: what JSON.stringify writes (brasilapi.ts). */
export const writeCompanyCompact = companyWriter('compact');

export const minhaReceita: CompatShape = {
  name: 'minha-receita',
  parse(raw: string): CompatParse {
    const p = minhaReceitaParse(raw);
    return 'cnpj' in p ? p : { invalid: { status: 400, body: messageBody(p.message) } };
  },
  found(rows, ctx) {
    return { status: 200, body: writeCompany(minhaReceitaCompany(rows, ctx)) };
  },
  notFound(cnpj: string): CompatAnswer {
    return { status: 404, body: messageBody(`CNPJ ${formatCnpj(cnpj)} não encontrado.`) };
  },
  refused(status, _code, message) {
    return { status, body: messageBody(message) };
  },
  headers(status) {
    if (status === 200 || status === 400 || status === 404) return JSON_HEADERS;
    return status === 405 ? METHOD_HEADERS : REFUSAL_HEADERS;
  },
};
