// A month of the registry, written 'YYYY-MM' (01–12): the import's --month, the download
// server's folders, the demo generator's publication month, a snapshot's month.

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(s: string): boolean {
  return MONTH.test(s);
}

/** 'YYYY-MM' → its year and month number (1–12), or null when it is not a month. */
export function parseMonth(s: string): { year: number; month: number } | null {
  const m = MONTH.exec(s);
  return m ? { year: Number(m[1]), month: Number(m[2]) } : null;
}

/** The month `n` months after `month` (before it when n < 0). */
export function addMonths(month: string, n: number): string {
  const ym = parseMonth(month);
  if (!ym) throw new Error(`month must be YYYY-MM, got ${month}`);
  const i = ym.year * 12 + (ym.month - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}
