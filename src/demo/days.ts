// Days of the synthetic calendar: day numbers since 1970-01-01 and their `YYYYMMDD` text.

import type { Rng } from './prng.ts';

export const DAY_MS = 86_400_000;

/** `YYYYMMDD` for a day number since 1970-01-01 (civil-from-days; faster than Date). */
export function ymd(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}${m < 10 ? '0' : ''}${m}${d < 10 ? '0' : ''}${d}`;
}

export function dayOf(y: number, m: number, d: number): number {
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

export function yearOf(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

/** A day in [from, to]; `from` when the range is empty. */
export function between(r: Rng, from: number, to: number): number {
  return to <= from ? from : from + r.int(to - from + 1);
}
