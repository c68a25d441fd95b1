// The search index's rowid of an establishment, from its CNPJ's first 12 characters.
//
// FTS5 returns matches by ascending rowid and stores each term's documents as rowid deltas (a
// varint each), so the rowid decides both the order of results and the size of the index:
// - a numeric CNPJ (all but the newest) is its 12 digits as a decimal number (< 10^12): CNPJ
//   order, and consecutive establishments of a full month are ~16,000 apart (2-byte deltas);
// - an alphanumeric one (IN RFB 2.229/2024, from July 2026) is 10^12 + its 12 characters read in
//   base 36 ([0-9A-Z]: digits sort before letters in both ASCII and base 36, so this is CNPJ order
//   among them). Base 36 for all would also keep CNPJ order, but spreads numeric CNPJs 3.6^12
//   times further apart: ~2 bytes more per term and document (a much larger index, measured:
//   docs/search.md).
// Numeric and alphanumeric CNPJs interleave in CNPJ order, so a query reads the two rowid ranges
// separately and merges them by CNPJ (page.ts). 10^12 + 36^12 < 2^63; above 2^53 JS needs BigInt.
import { checkDigits } from '../cnpj.ts';

/** First rowid of the alphanumeric range. */
export const ALNUM_BASE = 1_000_000_000_000;
const ALNUM_BASE_N = BigInt(ALNUM_BASE);
const HALF = 36n ** 6n;
const NUMERIC = /^\d{12}/;
const BODY = /^[0-9A-Z]{12}/;

function base36(body12: string): bigint {
  // Two halves of 6 characters: each parses exactly as a JS number (36^6 < 2^31).
  return BigInt(parseInt(body12.slice(0, 6), 36)) * HALF + BigInt(parseInt(body12.slice(6, 12), 36));
}

/** Rowid of a CNPJ (14 characters, or its 12-character body): a number when numeric, else a bigint. */
export function rowidOfCnpj(cnpj: string): number | bigint {
  if (NUMERIC.test(cnpj)) return Number(cnpj.slice(0, 12));
  if (!BODY.test(cnpj)) throw new Error(`not a CNPJ body: ${JSON.stringify(cnpj.slice(0, 12))}`);
  return ALNUM_BASE_N + base36(cnpj);
}

/** The full 14-character CNPJ of a rowid. */
export function cnpjOfRowid(rowid: number | bigint): string {
  const body =
    rowid < ALNUM_BASE
      ? String(rowid).padStart(12, '0')
      : (BigInt(rowid) - ALNUM_BASE_N).toString(36).toUpperCase().padStart(12, '0');
  return body + checkDigits(body);
}

/**
 * The rowid bounds "after this CNPJ" in each range: numeric CNPJs above `after` have rowid >
 * `numeric`, alphanumeric ones rowid > `alnum`. Null `after`: from the start.
 */
export function boundsAfter(after: string | null): { numeric: number; alnum: bigint } {
  if (after === null) return { numeric: -1, alnum: ALNUM_BASE_N - 1n };
  if (!BODY.test(after)) throw new Error(`not a CNPJ body: ${JSON.stringify(after.slice(0, 12))}`);
  const alnum = ALNUM_BASE_N + base36(after);
  if (NUMERIC.test(after)) return { numeric: Number(after.slice(0, 12)), alnum };
  // A numeric body N sorts after an alphanumeric A exactly when N's digits before A's first
  // letter (at i) are greater than A's: N ≥ (those digits + 1) · 10^(12 − i).
  const i = after.search(/[A-Z]/);
  const head = i === 0 ? ALNUM_BASE : (Number(after.slice(0, i)) + 1) * 10 ** (12 - i);
  return { numeric: Math.min(head, ALNUM_BASE) - 1, alnum };
}

/** The rowid ranges [lo, hi] that hold the establishments of CNPJ root `root` (its first 8 characters). */
export function rootRowidRanges(root: string): [bigint, bigint][] {
  const alnum: [bigint, bigint] = [ALNUM_BASE_N + base36(`${root}0000`), ALNUM_BASE_N + base36(`${root}ZZZZ`)];
  return /^\d{8}$/.test(root) ? [[BigInt(root) * 10000n, BigInt(root) * 10000n + 9999n], alnum] : [alnum];
}
