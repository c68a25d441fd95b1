// Numbers and dates as a Brazilian reader expects them ("1.234", "21/11/2026"), shown in São Paulo
// time, the zone the quota month is counted in (docs/quotas-and-tokens.md).
import { daysInMonth as daysOf, isCalendarDate } from '../../lib/calendar.ts';

const TZ = 'America/Sao_Paulo';
const intFmt = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const pctFmt = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const dateFmt = new Intl.DateTimeFormat('pt-BR', { timeZone: TZ, day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTimeFmt = new Intl.DateTimeFormat('pt-BR', {
  timeZone: TZ,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const monthFmt = new Intl.DateTimeFormat('pt-BR', { timeZone: TZ, month: 'long', year: 'numeric' });

export const formatInt = (n: number): string => intFmt.format(n);
export const formatPct = (n: number): string => pctFmt.format(n);

function toDate(v: Date | string | number): Date {
  return v instanceof Date ? v : new Date(v);
}

export const formatDate = (v: Date | string | number): string => dateFmt.format(toDate(v));
export const formatDateTime = (v: Date | string | number): string => dateTimeFmt.format(toDate(v));
/** "novembro de 2026" */
export const formatMonth = (v: Date): string => monthFmt.format(v);

/** Days in a 'YYYY-MM' month. */
export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return daysOf(y, m);
}

/**
 * A date typed as a Brazilian reads it, "31/01/2027" (or "1/3/2027"), to 'YYYY-MM-DD'; an ISO date
 * passes as is. Null when it is not a real calendar date.
 */
export function parseBrDate(input: string): string | null {
  const s = input.trim();
  const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  const iso = br ? `${br[3]}-${br[2]!.padStart(2, '0')}-${br[1]!.padStart(2, '0')}` : s;
  return isCalendarDate(iso) ? iso : null;
}

/** A calendar day 'YYYY-MM-DD' as "31/01/2027", with no time-zone shift (it is a day, not an instant). */
export const formatDay = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
