// Gregorian calendar arithmetic on plain numbers and 'YYYY-MM-DD' strings: one home for what the
// importer (dump dates), the response mapping, search's date ranges, query parameters and the web
// app each need. No Date object on the hot paths: one per call cost more than the rest of a row.

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days in month `m` (1–12) of year `y`. */
export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : DAYS[m - 1];
}

/** True for a real calendar date written 'YYYY-MM-DD'. */
export function isCalendarDate(s: string): boolean {
  if (s.length !== 10 || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const y = Number(s.slice(0, 4));
  const m = Number(s.slice(5, 7));
  const d = Number(s.slice(8, 10));
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}
