// OpenCNPJ's shape (Hitmasu/OpenCNPJ @ ee753a8a, docs/compat.md §4): GET /opencnpj/{cnpj}.
// Upstream builds one JSON per establishment in DuckDB (src/ETL/Modules/Receita/Processors/
// JsonProjection.cs, QsaProjection.cs, joins in ShardQueryBuilder.cs) from the dump read as
// all-VARCHAR columns, and its Worker answers JSON.stringify of that record (src/Worker/src/http.ts
// jsonOk). So every value is the dump's string or "", and the key order is the projection's.
import {
  CODE_WIDTH,
  FAIXA_ETARIA,
  codeNumber,
  codeText,
  domainText,
  isoDate,
  moneyText,
  text,
} from '../company/codes.ts';
import { cepText } from '../company/map.ts';
import type { CompatRows, CompatContext } from './rows.ts';
import type { CompatAnswer, CompatParse, CompatShape } from './shape.ts';
import type { OpenCnpjBody, OpenCnpjSocio, OpenCnpjTelefone } from './opencnpj-schema.ts';

type Code = number | string | null;

// JsonProjection.cs / QsaProjection.cs: OpenCNPJ's own wording of the fixed code domains.
const SITUACAO = new Map([
  [1, 'Nula'],
  [2, 'Ativa'],
  [3, 'Suspensa'],
  [4, 'Inapta'],
  [8, 'Baixada'],
]);
const MATRIZ_FILIAL = new Map([
  [1, 'Matriz'],
  [2, 'Filial'],
]);
const PORTE = new Map([
  [0, 'Não informado'],
  [1, 'Microempresa (ME)'],
  [3, 'Empresa de Pequeno Porte (EPP)'],
  [5, 'Demais'],
]);
const IDENTIFICADOR_SOCIO = new Map([
  [1, 'Pessoa Jurídica'],
  [2, 'Pessoa Física'],
  [3, 'Estrangeiro'],
]);
// The Receita's age bands, with OpenCNPJ's "Mais de 80 anos" where ours says "Maior".
const FAIXA = new Map([...FAIXA_ETARIA, [9, 'Mais de 80 anos']]);

/** YYYY-MM-DD, or "" (upstream passes an empty field through COALESCE(…, '')). */
const day = (v: Code): string => isoDate(v) ?? '';

/**
 * A Simples date. The dump writes a date the company never had as `00000000`, which upstream's
 * 8-digit rule prints as `0000-00-00`; our snapshot keeps NULL for it, so a Simples row with no
 * date answers `0000-00-00`, as upstream does for the dump's rows.
 */
const simplesDay = (v: Code): string => isoDate(v) ?? '0000-00-00';

/** A code-table description joined on the code (LEFT JOIN … ON code = codigo), or "" when absent. */
function described(table: ReadonlyMap<number, string>, v: Code): string {
  const n = codeNumber(v);
  return n === null ? '' : (table.get(n) ?? '');
}

/** The dump's capital (`1061004829,23`): our exact cents with a decimal comma. */
function capital(cents: Code): string {
  const m = moneyText(cents);
  const dot = m.length - 3;
  return m.charCodeAt(dot) === 46 ? `${m.slice(0, dot)},${m.slice(dot + 1)}` : m;
}

function phone(ddd: Code, numero: Code, isFax: boolean, out: OpenCnpjTelefone[]): void {
  // An item when either half is present (list_filter over CASE … IS NOT NULL).
  if (ddd !== null || numero !== null) out.push({ ddd: text(ddd), numero: text(numero), is_fax: isFax });
}

function body(rows: CompatRows, ctx: CompatContext): OpenCnpjBody {
  const e = rows.establishment;
  const c = rows.company;
  const s = rows.simples;
  const t = ctx.codeTables;
  const telefones: OpenCnpjTelefone[] = [];
  phone(e.ddd_1, e.telefone_1, false, telefones);
  phone(e.ddd_2, e.telefone_2, false, telefones);
  phone(e.ddd_fax, e.fax, true, telefones);
  // Partners in import order: upstream's array_agg has no ORDER BY (docs/compat.md §4.2).
  const qsa: OpenCnpjSocio[] = rows.partners.map((p) => ({
    nome_socio: text(p.nome),
    cnpj_cpf_socio: text(p.cnpj_cpf),
    qualificacao_socio: described(t.qualificacoes, p.qualificacao),
    data_entrada_sociedade: day(p.data_entrada),
    identificador_socio: domainText(IDENTIFICADOR_SOCIO, p.identificador, 1),
    faixa_etaria: domainText(FAIXA, p.faixa_etaria, 1),
  }));
  return {
    cnpj: e.cnpj ?? '',
    razao_social: text(c?.razao_social ?? null),
    nome_fantasia: text(e.nome_fantasia),
    situacao_cadastral: e.situacao_cadastral === null ? null : domainText(SITUACAO, e.situacao_cadastral),
    data_situacao_cadastral: day(e.data_situacao_cadastral),
    matriz_filial: e.matriz_filial === null ? null : domainText(MATRIZ_FILIAL, e.matriz_filial, 1),
    data_inicio_atividade: day(e.data_inicio_atividade),
    cnae_principal: codeText(e.cnae_fiscal, CODE_WIDTH.cnae),
    // Stored as the dump's list, cleaned (codes padded to 7, empty entries dropped).
    cnaes_secundarios: e.cnaes_secundarios === null ? [] : e.cnaes_secundarios.split(','),
    natureza_juridica: c === null ? '' : described(t.naturezas, c.natureza_juridica),
    tipo_logradouro: text(e.tipo_logradouro),
    logradouro: text(e.logradouro),
    numero: text(e.numero),
    complemento: text(e.complemento),
    bairro: text(e.bairro),
    cep: cepText(e.cep),
    uf: text(e.uf),
    municipio: described(t.municipios, e.municipio),
    email: text(e.email),
    telefones,
    capital_social: c === null ? '' : capital(c.capital_social_cents),
    porte_empresa: c === null ? '' : domainText(PORTE, c.porte),
    opcao_simples: s === null ? '' : text(s.opcao_simples),
    data_opcao_simples: s === null ? '' : simplesDay(s.data_opcao_simples),
    opcao_mei: s === null ? '' : text(s.opcao_mei),
    data_opcao_mei: s === null ? '' : simplesDay(s.data_opcao_mei),
    QSA: qsa,
  };
}

// src/Worker/src/constants.ts: ALPHANUMERIC_CNPJ_PATTERN, CNPJ_MASK_CHARACTERS.
const CNPJ_PATTERN = /^[A-Z0-9]{12}\d{2}$/;
const MASK = /[./-]/g;
const OUTER_SLASHES = /^\/+|\/+$/g;

const JSON_TYPE = 'application/json; charset=utf-8';
// src/Worker/src/http.ts jsonOk (CACHE_TTL_SECONDS = one day) and jsonError (NO_STORE_HEADERS).
// Upstream: `public, max-age=86400, s-maxage=86400` (a tokenless CDN). Ours are per token and
// counted, so no shared cache may keep them (RFC 9111 §3.5); a browser keeps them a day as upstream.
const OK_HEADERS = Object.freeze({
  'Content-Type': JSON_TYPE,
  'Cache-Control': 'private, max-age=86400',
});
const ERROR_HEADERS = Object.freeze({ 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' });

const error = (status: number, message: string): CompatAnswer => ({ status, body: JSON.stringify({ error: message }) });
const INVALID: CompatParse = { invalid: error(400, 'invalid cnpj') };
const NOT_FOUND = error(404, 'not found');

export const opencnpj: CompatShape = {
  name: 'opencnpj',

  // src/Worker/src/cnpj.ts extractCnpjFromPath + normalizeCnpj; no check-digit test upstream.
  parse(raw) {
    const candidate = raw.trim().replace(OUTER_SLASHES, '');
    if (candidate === '') return INVALID;
    const slash = candidate.indexOf('/');
    if (slash !== -1 && candidate.indexOf('/', slash + 1) !== -1) return INVALID;
    const cnpj = candidate.trim().toUpperCase().replace(MASK, '');
    return CNPJ_PATTERN.test(cnpj) ? { cnpj } : INVALID;
  },

  found(rows, ctx) {
    return { status: 200, body: JSON.stringify(body(rows, ctx)) };
  },

  notFound() {
    return NOT_FOUND;
  },

  // Upstream's error envelope carries one string and nothing else, so a refusal of ours carries
  // our error code (docs/errors.md) there; 405 is upstream's own "method not allowed".
  refused(status, code) {
    return error(status, status === 405 ? 'method not allowed' : code);
  },

  headers(status) {
    return status === 200 ? OK_HEADERS : ERROR_HEADERS;
  },
};
