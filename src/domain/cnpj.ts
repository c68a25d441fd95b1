// CNPJ validation, normalisation and formatting, numeric and alphanumeric (IN RFB 2.229/2024):
// positions 1–12 are [0-9A-Z], the two check digits stay numeric, and every character is worth
// its ASCII code minus 48 (so 'A' = 17) in the mod-11 sums.

const WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/;
const PUNCTUATION = /[./\-\s]/g;
// Fourteen zeros pass the mod-11 check (every sum is 0) but are no CNPJ: a placeholder, never
// issued. It is the only repeated-character string that passes. The all-zero root itself is
// real (Banco do Brasil is 00.000.000/0001-91, its branches 00.000.000/NNNN-DD), so only this
// one string is refused; order 0000 on other roots is not refused either, for want of a rule
// published by the Receita.
const ALL_ZERO = '00000000000000';

function digit(sum: number): number {
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** The two check digits for a 12-character body of [0-9A-Z]. */
export function checkDigits(body12: string): string {
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < 12; i++) {
    const v = body12.charCodeAt(i) - 48;
    s1 += v * WEIGHTS_1[i];
    s2 += v * WEIGHTS_2[i];
  }
  const d1 = digit(s1);
  s2 += d1 * WEIGHTS_2[12];
  return `${d1}${digit(s2)}`;
}

/**
 * Normalises user input to the bare 14 characters: uppercase, and the punctuation of the
 * formatted form (`. / -`, spaces) removed. Returns null when the result is not a valid CNPJ.
 * Only punctuation is stripped, never letters: alphanumeric CNPJs keep them.
 */
export function normalizeCnpj(input: string): string | null {
  if (typeof input !== 'string' || input.length > 32) return null;
  const bare = input.replace(PUNCTUATION, '').toUpperCase();
  return isValidCnpj(bare) ? bare : null;
}

/** True for 14 characters of the right shape whose check digits match (and not all zeros). */
export function isValidCnpj(cnpj: string): boolean {
  return SHAPE.test(cnpj) && cnpj !== ALL_ZERO && checkDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

/** `AA.AAA.AAA/OOOO-DD` */
export function formatCnpj(cnpj: string): string {
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12, 14)}`;
}

/**
 * The one example CNPJ of the docs, /openapi.json, the web app and the demo: SERPRO's Brasília
 * branch, a real public record (its rows: domain/company/example.ts).
 */
export const EXAMPLE_CNPJ = '33683111000280';
export const EXAMPLE_CNPJ_PRETTY = formatCnpj(EXAMPLE_CNPJ);
export const EXAMPLE_BASE = EXAMPLE_CNPJ.slice(0, 8);

/** Builds a full CNPJ from a base (8) and an order (4). */
export function makeCnpj(base8: string, order4: string): string {
  const body = base8 + order4;
  return body + checkDigits(body);
}
