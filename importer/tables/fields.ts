// Field rules shared by every source table: the Receita quirks (layout doc §4) handled once.
// Everything arrives as a string; empty means NULL in the snapshot (saves bytes, one rule on output).

const NEEDS_CLEANING = /^\s|\s$|\s\s|[\t\r\n]/;

/** Trimmed text with runs of whitespace collapsed to one space; '' → null. */
export function text(s: string): string | null {
  if (s === '') return null;
  if (NEEDS_CLEANING.test(s)) s = s.replace(/\s+/g, ' ').trim();
  return s === '' ? null : s;
}

const DIGITS = /^\d{1,15}$/;

/** A numeric code stored as INTEGER (leading zeros come back on output); other text kept as is. */
export function code(s: string): number | string | null {
  if (s === '') return null;
  if (DIGITS.test(s)) return +s;
  const t = s.trim();
  if (t === '') return null;
  return DIGITS.test(t) ? +t : t;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MAX_YEAR = new Date().getUTCFullYear() + 1;

/**
 * YYYYMMDD → INTEGER yyyymmdd, or null for the placeholders (`0`, `00000000`, empty), 7-digit
 * values, impossible calendar dates and years outside 1800..next year.
 */
export function date(s: string): number | null {
  if (s.length !== 8) return null;
  const n = +s;
  if (!Number.isInteger(n) || n <= 0) return null;
  const y = (n / 10000) | 0;
  const m = ((n / 100) | 0) % 100;
  const d = n % 100;
  if (y < 1800 || y > MAX_YEAR || m < 1 || m > 12 || d < 1 || d > DAYS_IN_MONTH[m - 1]) return null;
  if (m === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return null;
  return n;
}

const MONEY = /^(\d+)(?:,(\d{1,2}))?$/;

/**
 * Capital social `1061004829,23` / `000000018000,00` / `1.234,56` → exact integer cents.
 * Never a float: the digits are concatenated, and values past 2^53 cents become BigInt.
 */
export function cents(s: string): number | bigint | null {
  const t = s.trim().replace(/\./g, '');
  const m = MONEY.exec(t);
  if (!m) return null;
  const digits = (m[1] + (m[2] ?? '').padEnd(2, '0')).replace(/^0+(?=\d)/, '');
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : BigInt(digits);
}

/** CEP: 8 digits; a 7-digit value gets its leading zero back; zeros → null; anything else as given. */
export function cep(s: string): string | null {
  const t = text(s);
  if (t === null) return null;
  if (/^\d{8}$/.test(t)) return t;
  if (/^\d{7}$/.test(t)) return '0' + t;
  if (/^0+$/.test(t)) return null;
  return t;
}

/** Digits-only phone parts; other characters dropped (shifted columns sometimes hold text). */
export function phone(s: string): string | null {
  if (s === '') return null;
  const t = /^\d+$/.test(s) ? s : s.replace(/\D/g, '');
  return t === '' ? null : t;
}

/** `S` / `N` flags; anything else (empty = "outros") → null. */
export function flag(s: string): string | null {
  const t = s.trim().toUpperCase();
  return t === 'S' || t === 'N' ? t : null;
}

const KEY_CHARS = /^[0-9A-Z]+$/;

/**
 * A CNPJ part (base 8 or order 4): uppercase, numeric values left-padded (unpadded codes
 * occur), letters allowed (alphanumeric CNPJs, July 2026). null when it cannot be a key.
 */
export function keyPart(s: string, width: number): string | null {
  let t = s.trim().toUpperCase();
  if (t.length < width && /^\d+$/.test(t)) t = t.padStart(width, '0');
  return t.length === width && KEY_CHARS.test(t) ? t : null;
}

/** Secondary CNAE list `6201501,6202300` → the same list cleaned (empty codes dropped), or null. */
export function codeList(s: string): string | null {
  if (s === '') return null;
  if (/^\d{7}(,\d{7})*$/.test(s)) return s;
  const parts = s.split(',').map((p) => p.trim()).filter((p) => p !== '');
  return parts.length ? parts.map((p) => (/^\d{1,7}$/.test(p) ? p.padStart(7, '0') : p)).join(',') : null;
}
