// A second, independent implementation of Minha Receita's transform
// (cuducos/minha-receita @ e04fefb74d55e2af25671641e447a023125744ea), written from its Go source
// and run on a fixture month's raw CSV rows: what the upstream would serve for each establishment.
// It imports nothing from src/domain/compat; each rule names the upstream file it follows. The
// golden test (test/domain/compat/minha-receita-golden.test.ts) compares our answers with it.
//
// Where the upstream's transform would stop instead of producing a value (a date or a code it
// cannot parse, a record with the wrong number of fields, a CNPJ twice), the value is an Abort
// marker, or the row is listed in `stops`, so the test can name those places one by one.
import { readRawMonth, type RawRow } from '../raw-month.ts';

export interface Abort {
  readonly abort: string;
  readonly raw: string;
}
export const isAbort = (v: unknown): v is Abort => typeof v === 'object' && v !== null && 'abort' in v;

/** A number written as given (capital_social: Go's shortest float32 digits), not re-formatted. */
export interface NumberText {
  readonly numberText: string;
}
const isNumberText = (v: unknown): v is NumberText => typeof v === 'object' && v !== null && 'numberText' in v;

export type Value = null | boolean | number | string | Abort | NumberText | Value[] | { [k: string]: Value };

export interface MinhaReceitaReference {
  /** CNPJ → the Company object in struct order (transform/company.go). */
  companies: Map<string, { [k: string]: Value }>;
  /** Records or keys the upstream's transform would stop at, with why. */
  stops: { cnpj: string; reason: string }[];
}

// transform/archive.go: ISO-8859-15, NUL removed, runs of two or more RE2 \s ([\t\n\f\r ]) → " ".
const decode = (b: Buffer) => new TextDecoder('iso-8859-15').decode(b);
const clean = (s: string) => s.replace(/\0/g, '').replace(/[\t\n\f\r ]{2,}/g, ' ');

// transform/cast.go
function toInt(v: string): number | null | Abort {
  if (v === '') return null;
  return /^[+-]?\d+$/.test(v) ? Number(v) : { abort: 'strconv.Atoi fails', raw: v };
}
function toDate(v: string): string | null | Abort {
  if (v === '' || (/^[+-]?\d+$/.test(v) && Number(v) === 0)) return null;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (m !== null) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const t = new Date(Date.UTC(y, mo - 1, d));
    if (mo >= 1 && mo <= 12 && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d) return `${m[1]}-${m[2]}-${m[3]}`;
  }
  return { abort: 'time.Parse("20060102") fails', raw: v };
}
function toBool(v: string): boolean | null {
  const u = v.toUpperCase();
  return u === 'S' ? true : u === 'N' ? false : null;
}

// --- strconv.ParseFloat(s, 32) and FormatFloat(f, 'f'/'e', -1, 32), by exact rationals --------
// (not the production code's method: candidates around a guess, compared as fractions)
type Ratio = [bigint, bigint]; // numerator, denominator > 0
function ratioOfDecimal(s: string): Ratio {
  const m = /^(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/.exec(s)!;
  const frac = m[2] ?? '';
  const exp = Number(m[3] ?? 0) - frac.length;
  const digits = BigInt((m[1] ?? '') + frac || '0');
  return exp >= 0 ? [digits * 10n ** BigInt(exp), 1n] : [digits, 10n ** BigInt(-exp)];
}
function ratioOfDouble(x: number): Ratio {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const exp = (hi >>> 20) & 0x7ff;
  const mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(buf.getUint32(4));
  const m = exp === 0 ? mant : mant | (1n << 52n);
  const e = (exp === 0 ? 1 : exp) - 1075;
  return e >= 0 ? [m << BigInt(e), 1n] : [m, 1n << BigInt(-e)];
}
const cmp = (a: Ratio, b: Ratio) => {
  const l = a[0] * b[1];
  const r = b[0] * a[1];
  return l < r ? -1 : l > r ? 1 : 0;
};
const dist = (a: Ratio, b: Ratio): Ratio => {
  const n = a[0] * b[1] - b[0] * a[1];
  return [n < 0n ? -n : n, a[1] * b[1]];
};
function float32Neighbours(x: number): number[] {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer);
  const out = [f[0]!];
  u[0] = u[0]! + 1;
  out.push(f[0]!);
  if (x > 0) {
    u[0] = u[0]! - 2;
    out.push(f[0]!);
  }
  return out.filter(Number.isFinite);
}
const evenMantissa = (x: number) => (new Uint32Array(new Float32Array([x]).buffer)[0]! & 1) === 0;
/** The float32 nearest to the exact value `v` (`guess` a double near it), ties to the even mantissa. */
function nearestFloat32(v: Ratio, guess: number): number {
  let best = NaN;
  let bestDist: Ratio = [1n, 0n];
  for (const c of float32Neighbours(Math.fround(guess))) {
    const d = dist(ratioOfDouble(c), v);
    const order = Number.isNaN(best) ? -1 : cmp(d, bestDist);
    if (order < 0 || (order === 0 && evenMantissa(c))) [best, bestDist] = [c, d];
  }
  return best;
}
const ratio = (n: bigint, k: number): Ratio => (k >= 0 ? [n * 10n ** BigInt(k), 1n] : [n, 10n ** BigInt(-k)]);
/** n × 10^k without an exponent. */
function plainText(n: bigint, k: number): string {
  if (k >= 0) return n.toString() + '0'.repeat(k);
  const s = n.toString().padStart(1 - k, '0');
  return `${s.slice(0, k)}.${s.slice(k)}`.replace(/0+$/, '').replace(/\.$/, '');
}
/**
 * Shortest decimal that parses back to x (strconv.FormatFloat(x, …, -1, 32)): for each length, the
 * p-digit decimals around x that do; the nearest, the even last digit on a tie.
 */
function formatFloat32(x: number): string {
  if (x === 0) return '0';
  const xr = ratioOfDouble(x);
  for (let p = 1; p <= 9; p++) {
    const [mant, exp] = x.toExponential(p - 1).split('e') as [string, string];
    const n0 = BigInt(mant.replace('.', ''));
    const k = Number(exp) - (p - 1);
    const ok = [n0 - 1n, n0, n0 + 1n]
      .filter((n) => n > 0n)
      .map((n) => ({ n, r: ratio(n, k) }))
      .filter((c) => nearestFloat32(c.r, Number(`${c.n}e${k}`)) === x);
    if (ok.length === 0) continue;
    ok.sort((a, b) => cmp(dist(a.r, xr), dist(b.r, xr)) || (a.n % 2n === 0n ? -1 : 1));
    return plainText(ok[0]!.n, k);
  }
  throw new Error(`no float32 digits for ${x}`);
}
// cast.go toFloat: "," → ".", ParseFloat(…, 32); Go's encoding/json writes the float32's shortest
// digits; PostgreSQL's numeric keeps them and prints them without an exponent.
export function toFloat(v: string): NumberText | null | Abort {
  if (v === '') return null;
  const s = v.replace(/,/g, '.');
  if (!/^\d+(\.\d*)?$/.test(s)) return { abort: 'strconv.ParseFloat fails (or a negative value)', raw: v };
  return { numberText: formatFloat32(nearestFloat32(ratioOfDecimal(s), Number(s))) };
}

// transform/lookups.go newLookups: the six tables by Atoi(code), plus 16 countries by hand.
const HAND_COUNTRIES: [number, string][] = [
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
const lookup = (m: Map<string, string>) => new Map([...m].map(([k, v]) => [Number(clean(k)), clean(v)] as const));

const MD5_EMPTY = Buffer.from('d41d8cd98f00b204e9800998ecf8427e', 'hex');
/** kv.go checksumFor: hex(join(row, "") + MD5("")) — compared here as the bytes before hex. */
const kvKey = (r: RawRow) => Buffer.concat([Buffer.from(r.join(''), 'utf8'), MD5_EMPTY]);

const unmask = (s: string) => s.replace(/[^0-9A-Z]/g, ''); // go-cnpj Unmask

/** Runs the transform on the month in `dir`. `ibge`: the tabmun.csv lookup (SIAFI → IBGE). */
export async function minhaReceitaReference(
  dir: string,
  ibge: (siafi: number) => number | null,
): Promise<MinhaReceitaReference> {
  const raw = await readRawMonth(dir, decode);
  const stops: MinhaReceitaReference['stops'] = [];
  // encoding/csv: a record whose field count differs from the first record's is an error (the
  // transform stops); empty lines are skipped.
  const rows = (list: RawRow[], n: number, what: string) =>
    list
      .filter((r) => !(r.length === 1 && r[0] === ''))
      .filter((r) => {
        if (r.length === n) return true;
        stops.push({ cnpj: r.slice(0, 3).join(''), reason: `${what} record with ${r.length} fields` });
        return false;
      })
      .map((r) => r.map(clean));

  const motives = lookup(raw.motivos);
  const cities = lookup(raw.municipios);
  const cnaes = lookup(raw.cnaes);
  const qualifications = lookup(raw.qualificacoes);
  const natures = lookup(raw.naturezas);
  const countries = lookup(raw.paises);
  for (const [k, v] of HAND_COUNTRIES) if (!countries.has(k)) countries.set(k, v);
  // cities.go: tabmun.csv, plus 1182 → 5101837 by hand.
  const ibgeOf = (siafi: number) => (siafi === 1182 ? 5101837 : ibge(siafi));

  // Badger (kv.go, badger.go): one value per key, the last written wins (keys: b-<base>, st-<base>;
  // p-<base>:<hex> and tr-<cnpj>:<hex> for the 1-to-many sources).
  const base = new Map<string, RawRow>();
  for (const r of rows(raw.companies, 7, 'Empresas')) base.set(r[0]!, r);
  const simples = new Map<string, RawRow>();
  for (const r of rows(raw.simples, 7, 'Simples')) simples.set(r[0]!, r);
  const partners = new Map<string, Map<string, RawRow>>();
  for (const r of rows(raw.partners, 11, 'Socios')) {
    const m = partners.get(r[0]!) ?? new Map<string, RawRow>();
    m.set(kvKey(r).toString('hex'), r);
    partners.set(r[0]!, m);
  }
  const regimes = new Map<string, Map<string, RawRow>>();
  for (const r of raw.regimes.map((x) => x.map(clean))) {
    const k = unmask(r[1]!);
    const m = regimes.get(k) ?? new Map<string, RawRow>();
    m.set(kvKey(r).toString('hex'), r);
    regimes.set(k, m);
  }
  const sortedValues = (m: Map<string, RawRow> | undefined) =>
    [...(m ?? new Map<string, RawRow>())]
      .sort(([a], [b]) => Buffer.compare(Buffer.from(a, 'hex'), Buffer.from(b, 'hex')))
      .map(([, r]) => r);

  // partners.go
  const partner = (r: RawRow): { [k: string]: Value } => {
    const pais = toInt(r[6]!);
    const known = typeof pais === 'number' && countries.has(pais);
    const faixa = toInt(r[10]!);
    const q = toInt(r[4]!);
    const rq = toInt(r[9]!);
    const faixas = [
      'Não se aplica',
      'para os intervalos entre 0 a 12 anos',
      'Entre 13 a 20 ano',
      'Entre 21 a 30 anos',
      'Entre 31 a 40 anos',
      'Entre 41 a 50 anos',
      'Entre 51 a 60 anos',
      'Entre 61 a 70 anos',
      'Entre 71 a 80 anos',
      'Maiores de 80 anos',
    ];
    const desc = (t: Map<number, string>, c: unknown) => (typeof c === 'number' && t.get(c)) || null;
    return {
      identificador_de_socio: toInt(r[1]!),
      nome_socio: r[2]!,
      cnpj_cpf_do_socio: r[3]!,
      codigo_qualificacao_socio: q,
      qualificacao_socio: desc(qualifications, q),
      data_entrada_sociedade: toDate(r[5]!),
      codigo_pais: known ? pais : isAbort(pais) ? pais : null,
      pais: known ? countries.get(pais)! : null,
      cpf_representante_legal: r[7]!,
      nome_representante_legal: r[8]!,
      codigo_qualificacao_representante_legal: rq,
      qualificacao_representante_legal: desc(qualifications, rq),
      codigo_faixa_etaria: faixa,
      faixa_etaria: typeof faixa === 'number' ? (faixas[faixa] ?? null) : faixa,
    };
  };

  const companies = new Map<string, { [k: string]: Value }>();
  const seen = new Set<string>();
  for (const r of rows(raw.establishments, 30, 'Estabelecimentos')) {
    // company.go newCompany
    const cnpj = r[0]! + r[1]! + r[2]!;
    if (seen.has(cnpj)) stops.push({ cnpj, reason: 'CNPJ twice: the COPY into a UNIQUE index fails (db/postgres)' });
    seen.add(cnpj);
    const uf = r[19]!;
    const mf = toInt(r[3]!);
    const sit = toInt(r[5]!);
    const motivo = toInt(r[7]!);
    const pais = toInt(r[9]!);
    const paisKnown = typeof pais === 'number' && countries.has(pais);
    // lookups.go cnaes / newCnae: an empty code is a zero CNAE; descriptions "" when unknown.
    const cnae = (v: string): { codigo: Value; descricao: string } => {
      const i = toInt(v);
      if (i === null) return { codigo: 0, descricao: '' };
      return { codigo: i, descricao: typeof i === 'number' ? (cnaes.get(i) ?? '') : '' };
    };
    const main = cnae(r[11]!);
    // lookups.go municipio: nothing abroad; the name, then the IBGE code only once the name is found.
    let codigoMunicipio: Value = null;
    let municipio: string | null = null;
    let codigoIbge: number | null = null;
    if (uf !== 'EX') {
      const i = toInt(r[20]!);
      codigoMunicipio = i;
      if (typeof i === 'number' && cities.has(i)) {
        municipio = cities.get(i)!;
        codigoIbge = ibgeOf(i);
      }
    }
    const b = base.get(r[0]!);
    const st = simples.get(r[0]!);
    const natureza = b ? toInt(b[2]!) : null;
    const porte = b ? toInt(b[5]!) : null;
    const portes: Record<number, string> = {
      0: 'NÃO INFORMADO',
      1: 'MICRO EMPRESA',
      3: 'EMPRESA DE PEQUENO PORTE',
      5: 'DEMAIS',
    };
    // badger.go taxRegimeOf + taxes.go: key order, then sort.Sort by year (insertion sort: stable).
    const regs = sortedValues(regimes.get(unmask(cnpj)))
      .map((t) => ({
        ano: Number(t[0]),
        cnpj_da_scp: t[2] !== '' && t[2] !== '0' ? t[2]! : null,
        forma_de_tributacao: t[3]!,
        quantidade_de_escrituracoes: Number(t[4]),
      }))
      .map((t, i) => ({ t, i }))
      .sort((a, b2) => a.t.ano - b2.t.ano || a.i - b2.i)
      .map(({ t }) => t);
    companies.set(cnpj, {
      cnpj,
      identificador_matriz_filial: mf,
      descricao_identificador_matriz_filial: mf === 1 ? 'MATRIZ' : mf === 2 ? 'FILIAL' : null,
      nome_fantasia: r[4]!, // --no-privacy (see the golden test: the privacy rules are ours to skip)
      situacao_cadastral: sit,
      descricao_situacao_cadastral:
        typeof sit === 'number'
          ? ({ 1: 'NULA', 2: 'ATIVA', 3: 'SUSPENSA', 4: 'INAPTA', 8: 'BAIXADA' }[sit] ?? null)
          : null,
      data_situacao_cadastral: toDate(r[6]!),
      motivo_situacao_cadastral: motivo,
      descricao_motivo_situacao_cadastral: (typeof motivo === 'number' && motives.get(motivo)) || null,
      nome_cidade_no_exterior: r[8]!,
      codigo_pais: paisKnown ? pais : isAbort(pais) ? pais : null,
      pais: paisKnown ? countries.get(pais)! || null : null,
      data_inicio_atividade: toDate(r[10]!),
      cnae_fiscal: main.codigo,
      cnae_fiscal_descricao: main.descricao || null,
      descricao_tipo_de_logradouro: r[13]!,
      logradouro: r[14]!,
      numero: r[15]!,
      complemento: r[16]!,
      bairro: r[17]!,
      cep: r[18]!,
      uf,
      codigo_municipio: codigoMunicipio,
      codigo_municipio_ibge: codigoIbge,
      municipio,
      ddd_telefone_1: r[21]! + r[22]!,
      ddd_telefone_2: r[23]! + r[24]!,
      ddd_fax: r[25]! + r[26]!,
      email: r[27]!, // --no-privacy
      situacao_especial: r[28]!,
      data_situacao_especial: toDate(r[29]!),
      // taxes.go: all six null without a Simples row.
      opcao_pelo_simples: st ? toBool(st[1]!) : null,
      data_opcao_pelo_simples: st ? toDate(st[2]!) : null,
      data_exclusao_do_simples: st ? toDate(st[3]!) : null,
      opcao_pelo_mei: st ? toBool(st[4]!) : null,
      data_opcao_pelo_mei: st ? toDate(st[5]!) : null,
      data_exclusao_do_mei: st ? toDate(st[6]!) : null,
      // bases.go: a zero baseData without the Empresas row.
      razao_social: b ? b[1]! : '',
      codigo_natureza_juridica: natureza,
      natureza_juridica: (typeof natureza === 'number' && natures.get(natureza)) || null,
      qualificacao_do_responsavel: b ? toInt(b[3]!) : null,
      capital_social: b ? toFloat(b[4]!) : null,
      codigo_porte: porte,
      porte: typeof porte === 'number' ? (portes[porte] ?? null) : null,
      ente_federativo_responsavel: b ? b[6]! : '',
      qsa: sortedValues(partners.get(r[0]!)).map(partner),
      cnaes_secundarios: r[12]!.split(',').map(cnae),
      regime_tributario: regs,
    });
  }
  return { companies, stops };
}

// --- PostgreSQL jsonb output (src/backend/utils/adt/jsonb.c, json.c escape_json) -----------
const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');
/** jsonb's key order: shorter keys first, then bytewise (lengthCompareJsonbString). */
const jsonbKeyOrder = (a: string, b: string) =>
  utf8Length(a) - utf8Length(b) || Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
function escapeJson(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}
/** The text jsonb_out writes for this value. */
export function jsonbOut(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return escapeJson(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(jsonbOut).join(', ')}]`;
  if (isNumberText(v)) return v.numberText;
  if (isAbort(v)) throw new Error(`the upstream stops here: ${v.abort} (${v.raw})`);
  const keys = Object.keys(v).sort(jsonbKeyOrder);
  return `{${keys.map((k) => `${escapeJson(k)}: ${jsonbOut(v[k]!)}`).join(', ')}}`;
}
