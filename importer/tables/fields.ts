// Field rules shared by every source table: the Receita quirks (docs/receita-dump.md, §7) handled once.
// Everything arrives as a string; empty means NULL in the snapshot (saves bytes, one rule on output).
import { daysInMonth } from '../../src/lib/calendar.ts';

const NEEDS_CLEANING = /^\s|\s$|\s\s|[\t\r\n]/;

/** Trimmed text with runs of whitespace collapsed to one space; '' → null. */
export function text(s: string): string | null {
  if (s === '') return null;
  if (NEEDS_CLEANING.test(s)) s = s.replace(/\s+/g, ' ').trim();
  return s === '' ? null : s;
}

const DIGITS = /^\d{1,15}$/;

/**
 * The value of 1–15 ASCII digits, or -1 for anything else. A charCode loop: the per-field hot
 * path, measurably faster than a regex test plus a number conversion. Exact (15 digits < 2^53).
 */
function digitsValue(s: string): number {
  const n = s.length;
  if (n === 0 || n > 15) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

/** A numeric code stored as INTEGER (leading zeros come back on output); other text kept as is. */
export function code(s: string): number | string | null {
  if (s === '') return null;
  const v = digitsValue(s);
  if (v >= 0) return v;
  const t = s.trim();
  if (t === '') return null;
  return DIGITS.test(t) ? +t : t;
}

const MAX_YEAR = new Date().getUTCFullYear() + 1;

/**
 * YYYYMMDD → INTEGER yyyymmdd, or null for the placeholders (`0`, `00000000`, empty), 7-digit
 * values, impossible calendar dates and years outside 1800..next year.
 */
export function date(s: string): number | null {
  if (s.length !== 8) return null;
  const n = digitsValue(s);
  if (n <= 0) return null;
  const y = (n / 10000) | 0;
  const m = ((n / 100) | 0) % 100;
  const d = n % 100;
  if (y < 1800 || y > MAX_YEAR || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return n;
}

const MONEY = /^(\d+)(?:,(\d{1,2}))?$/;

/**
 * Capital social `1061004829,23` / `000000018000,00` / `1.234,56` → exact integer cents: a number
 * while a safe integer (below 2^53 cents, ~90 trillion reais), else the TEXT of the cents' digits
 * (`99999999999999999,99` → '9999999999999999999'), whatever its length. Never a float, and never
 * a BigInt: better-sqlite3 cannot bind one past int64, and that aborted the whole month.
 */
export function cents(s: string): number | string | null {
  // Fast path for the usual shape `123,45`: one pass over the characters, no string made. Exact:
  // while the value stays below 2^53 every step is exact, and a larger one fails isSafeInteger.
  const n = s.length;
  const comma = n - 3;
  if (comma > 0 && comma <= 15 && s.charCodeAt(comma) === 44) {
    let v = 0;
    for (let i = 0; i < n; i++) {
      if (i === comma) continue;
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) {
        v = -1;
        break;
      }
      v = v * 10 + d;
    }
    if (v >= 0 && Number.isSafeInteger(v)) return v;
  }
  const t = s.trim().replace(/\./g, '');
  const m = MONEY.exec(t);
  if (!m) return null;
  const digits = (m[1] + (m[2] ?? '').padEnd(2, '0')).replace(/^0+(?=\d)/, '');
  const v = Number(digits);
  return Number.isSafeInteger(v) ? v : digits;
}

/** A CEP as printed: `01001-000`, `01.001-000`. */
const PRINTED_CEP = /^(\d{2})\.?(\d{3})-(\d{3})$/;

/**
 * CEP: 8 digits stored as an INTEGER (the reader pads it back to 8: 4 bytes instead of 9); a
 * 7-digit value lost its leading zero, which the padding restores; a CEP as printed (`01001-000`,
 * `01.001-000`) is the same 8 digits; zeros → null; anything else kept as the text given (a
 * foreign postal code). BigInt: better-sqlite3 binds JS numbers as REAL.
 */
export function cep(s: string): bigint | string | null {
  // Fast path for the usual 8 digits: no regex, no string made.
  if (s.length === 8) {
    const v = digitsValue(s);
    if (v > 0) return BigInt(v);
  }
  const t = text(s);
  if (t === null || /^0+$/.test(t)) return null;
  if (/^\d{7,8}$/.test(t)) return BigInt(t);
  const m = PRINTED_CEP.exec(t);
  if (m === null) return t;
  const digits = m[1] + m[2] + m[3];
  return digits === '00000000' ? null : BigInt(digits);
}

/**
 * Digits-only phone parts; other characters dropped (shifted columns sometimes hold text). An
 * integer when it gives the same digits back (no leading zero, ≤ 15 digits), else the digit string.
 * BigInt because better-sqlite3 binds JS numbers as REAL (8 bytes in a column with no declared type).
 */
export function phone(s: string): bigint | string | null {
  if (s === '') return null;
  const v = digitsValue(s);
  if (v >= 0) return s.charCodeAt(0) !== 48 ? BigInt(v) : s;
  const t = s.replace(/\D/g, '');
  if (t === '') return null;
  return t.length <= 15 && t.charCodeAt(0) !== 48 ? BigInt(t) : t;
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
  if (s.length === width && digitsValue(s) >= 0) return s;
  let t = s.trim().toUpperCase();
  if (t.length < width && /^\d+$/.test(t)) t = t.padStart(width, '0');
  return t.length === width && KEY_CHARS.test(t) ? t : null;
}

/** Secondary CNAE list `6201501,6202300` → the same list cleaned (empty codes dropped), or null. */
export function codeList(s: string): string | null {
  if (s === '') return null;
  if (/^\d{7}(,\d{7})*$/.test(s)) return s;
  const parts = s
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.length ? parts.map((p) => (/^\d{1,7}$/.test(p) ? p.padStart(7, '0') : p)).join(',') : null;
}
