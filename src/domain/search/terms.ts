// The terms of the search index: one per filter value, written into each establishment's FTS
// document by the build (importer/search) and asked for by the queries (match.ts). Both sides
// call these functions, so a term is spelled in one place. A filter term starts with `_`, which a
// normalised name word never holds (normalize.ts keeps [a-z0-9]), then a letter naming the filter.
//
// Granularities, chosen for the size of the index and the speed of the queries (docs/search.md):
// - CNAE at 2 digits (division) and 7 (subclass) only: a 3–6 digit prefix is the OR of the
//   subclasses present that start with it (at most ~100, from the cnae_codes table). Two terms per
//   code instead of the four of 2/3/5/7 digits: every code written costs build time and bytes.
// - CEP at 2, 5 and 8 digits: 3–4 digits are the OR of the 5-digit terms present, 6–7 of the
//   8-digit ones (found in the FTS vocabulary: at most 100 terms of a few hundred documents).
// - Início de atividade as a year and a month term: a range is the OR of the whole years and
//   months it covers; only the (at most two) months cut by its ends need an exact check per row.
// - Capital social in 1-2-5 buckets per power of ten (of cents): a range with round ends (10,000,
//   50,000, 1 million reais…) needs no check at all.

const UF = /^[A-Z]{2}$/;
const ONLY_DIGITS = /^\d+$/;

/** An integer code, or null when the snapshot holds NULL or text that is not a code. */
export function intCode(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? v : null;
  if (typeof v === 'bigint') return v >= 0n ? Number(v) : null;
  if (typeof v === 'string' && ONLY_DIGITS.test(v) && v.length <= 15) return Number(v);
  return null;
}

export const term = {
  uf: (uf: string) => `_u${uf.toLowerCase()}`,
  municipio: (code: number) => `_m${code}`,
  /** A 2-digit division or a 7-digit subclass; primary (`_c`) or secondary (`_d`) activity. */
  cnae: (digits: string, secondary: boolean) => `${secondary ? '_d' : '_c'}${digits}`,
  /** 2, 5 or 8 digits of the CEP. */
  cep: (digits: string) => `_p${digits}`,
  situacao: (code: number) => `_s${code}`,
  matrizFilial: (code: number) => `_f${code}`,
  natureza: (code: number) => `_n${code}`,
  porte: (code: number) => `_o${code}`,
  simples: (yes: boolean) => (yes ? '_x1' : '_x0'),
  mei: (yes: boolean) => (yes ? '_w1' : '_w0'),
  email: (yes: boolean) => (yes ? '_e1' : '_e0'),
  telefone: (yes: boolean) => (yes ? '_t1' : '_t0'),
  /** `2019` or `201903`. */
  inicio: (yearOrMonth: number) => `_y${yearOrMonth}`,
  /** A bucket of capitalBucket(); zero is `_kz` (a `-` would split the term). */
  capital: (bucket: number) => (bucket < 0 ? '_kz' : `_k${bucket}`),
  /** Partner keys: the six digits the dump shows of a CPF, or a partner company's CNPJ. */
  partnerCpf: (six: string) => `_cpf${six}`,
  partnerCnpj: (cnpj: string) => `_cnpj${cnpj.toLowerCase()}`,
} as const;

/** The CNAE as its 7 digits (leading zeros back), or null. */
export function cnae7(v: unknown): string | null {
  const n = intCode(v);
  return n === null || n >= 1e7 ? null : String(n).padStart(7, '0');
}

/** The CEP as its 8 digits, or null (stored as INTEGER; 7-digit text lost its leading zero). */
export function cep8(v: unknown): string | null {
  if (typeof v === 'string') return /^\d{7,8}$/.test(v) ? v.padStart(8, '0') : null;
  const n = intCode(v);
  return n === null || n >= 1e8 || n < 1e6 ? null : String(n).padStart(8, '0');
}

// ---- capital social buckets ----

const STEPS = [1, 2, 5];
/** Buckets 0..LAST (1-2-5 per power of ten of cents); -1 is capital zero. Larger values share LAST. */
export const LAST_CAPITAL_BUCKET = 3 * 18 + 2;

/** The bucket of an amount in cents (≥ 0). */
export function capitalBucket(cents: number): number {
  if (cents < 1) return -1;
  const digits = cents < 1e15 ? String(Math.trunc(cents)).length : Math.floor(Math.log10(cents)) + 1;
  const lead = cents < 1e15 ? String(Math.trunc(cents)).charCodeAt(0) - 48 : Math.floor(cents / 10 ** (digits - 1));
  return Math.min(LAST_CAPITAL_BUCKET, (digits - 1) * 3 + (lead < 2 ? 0 : lead < 5 ? 1 : 2));
}

/** The cents range [low, high) of a bucket; zero is [0, 1); the last one is unbounded above. */
export function capitalBucketRange(b: number): [number, number] {
  if (b < 0) return [0, 1];
  const low = STEPS[b % 3] * 10 ** Math.floor(b / 3);
  return [low, b === LAST_CAPITAL_BUCKET ? Infinity : STEPS[(b + 1) % 3] * 10 ** Math.floor((b + 1) / 3)];
}

// ---- dates ----

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export function lastDayOfMonth(y: number, m: number): number {
  return m === 2 && ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0) ? 29 : DAYS[m - 1];
}

/** A stored yyyymmdd, or null when absent or not a date. */
export function ymdOf(v: unknown): number | null {
  const n = intCode(v);
  return n !== null && n >= 10000101 && n <= 99991231 ? n : null;
}

export function isUf(v: unknown): v is string {
  return typeof v === 'string' && UF.test(v);
}
