// Numbers and dates as a Brazilian reader expects them ("1.234", "21/11/2026"), shown in São Paulo
// time, the zone the quota month is counted in (contract 4).
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

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
