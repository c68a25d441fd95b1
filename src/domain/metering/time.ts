// Calendar arithmetic in America/Sao_Paulo. Brazil has had no DST since 2019, so a fixed
// UTC−3 offset is exact and far cheaper on the hot path than Intl.
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

const OFFSET_MS = 3 * 60 * 60 * 1000;

/** 'YYYY-MM-DD' of the instant in São Paulo. */
export function spDay(d: Date): string {
  return new Date(d.getTime() - OFFSET_MS).toISOString().slice(0, 10);
}

/** 'YYYY-MM' of the instant in São Paulo: the quota month. */
export function spMonth(d: Date): string {
  return new Date(d.getTime() - OFFSET_MS).toISOString().slice(0, 7);
}

/** Epoch seconds of 00:00 São Paulo on the first day of the next month (X-RateLimit-Reset). */
export function nextMonthStartEpoch(d: Date): number {
  const local = new Date(d.getTime() - OFFSET_MS);
  return (Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) + OFFSET_MS) / 1000;
}

/** The São Paulo day `days` after the instant's day, 'YYYY-MM-DD'. */
export function spDayPlus(d: Date, days: number): string {
  return spDay(new Date(d.getTime() + days * 86_400_000));
}
