// The fixed code → text domains of the Receita layout (docs/api-response.md, docs/receita-dump.md §5),
// and the small value formatters the mapping needs. Codes arrive as INTEGER (or as TEXT when the
// importer met a value that is not a number), so every helper accepts both.
import { daysInMonth } from '../../lib/calendar.ts';

type Code = number | string | null;

export const SITUACAO_CADASTRAL: ReadonlyMap<number, string> = new Map([
  [1, 'NULA'],
  [2, 'ATIVA'],
  [3, 'SUSPENSA'],
  [4, 'INAPTA'],
  [8, 'BAIXADA'],
]);

export const MATRIZ_FILIAL: ReadonlyMap<number, string> = new Map([
  [1, 'MATRIZ'],
  [2, 'FILIAL'],
]);

export const PORTE: ReadonlyMap<number, string> = new Map([
  [0, 'NÃO INFORMADO'],
  [1, 'MICRO EMPRESA'],
  [3, 'EMPRESA DE PEQUENO PORTE'],
  [5, 'DEMAIS'],
]);

export const FAIXA_ETARIA: ReadonlyMap<number, string> = new Map([
  [0, 'Não se aplica'],
  [1, '0 a 12 anos'],
  [2, '13 a 20 anos'],
  [3, '21 a 30 anos'],
  [4, '31 a 40 anos'],
  [5, '41 a 50 anos'],
  [6, '51 a 60 anos'],
  [7, '61 a 70 anos'],
  [8, '71 a 80 anos'],
  [9, 'Maior de 80 anos'],
]);

/** Width of each looked-up code, to give back the leading zeros an INTEGER column dropped. */
export const CODE_WIDTH = { cnae: 7, motivo: 2, municipio: 4, natureza: 4, pais: 3, qualificacao: 2 } as const;

/** The integer value of a code, or null when it is empty or not a number. */
export function codeNumber(v: Code): number | null {
  if (v === null || v === '') return null;
  if (typeof v === 'number') return Number.isInteger(v) ? v : null;
  const t = v.trim();
  return /^\d{1,15}$/.test(t) ? Number(t) : null;
}

/** The code as published: zero-padded to its width; a non-numeric value as given; "" when empty. */
export function codeText(v: Code, width: number): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v).padStart(width, '0');
  return v.trim();
}

/** Text of a code in a fixed domain; an unknown code shows as itself rather than vanishing. */
export function domainText(domain: ReadonlyMap<number, string>, v: Code, width = 2): string {
  const n = codeNumber(v);
  if (n !== null) return domain.get(n) ?? codeText(v, width);
  return codeText(v, width);
}

/** Description from a code table (cached Map); the padded code when the table lacks it. */
export function codeDescription(table: ReadonlyMap<number, string>, v: Code, width: number): string {
  const n = codeNumber(v);
  if (n !== null) {
    const d = table.get(n);
    if (d !== undefined) return d;
  }
  return codeText(v, width);
}

/** INTEGER yyyymmdd → "YYYY-MM-DD"; 0, empty and impossible dates → null. */
export function isoDate(v: number | string | null): string | null {
  const n = codeNumber(v);
  if (n === null || n < 10000101 || n > 99991231) return null;
  const y = Math.floor(n / 10000);
  const m = Math.floor(n / 100) % 100;
  const d = n % 100;
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return `${y}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}

/** Integer cents (a number, or the TEXT of their digits) → "1061004829.23", exact (no float division). */
export function moneyText(cents: number | string | null): string {
  if (cents === null || cents === '') return '';
  if (typeof cents === 'string') {
    // The importer stores cents past 2^53 as the TEXT of their digits; any other text as given.
    if (!/^-?\d+$/.test(cents.trim())) return cents.trim();
    const s = cents.trim();
    const neg = s.startsWith('-');
    const digits = (neg ? s.slice(1) : s).replace(/^0+(?=\d)/, '').padStart(3, '0');
    return `${neg ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
  }
  // Past 2^53 in a snapshot imported before such values were kept as text: the nearest the number
  // holds, still as reais (its digits are cents).
  if (!Number.isSafeInteger(cents))
    return Number.isInteger(cents) ? moneyText(BigInt(cents).toString()) : String(cents);
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const c = abs % 100;
  return `${neg ? '-' : ''}${(abs - c) / 100}.${c < 10 ? '0' : ''}${c}`;
}

/** `6204000` → `6204-0/00` */
export function cnaeMask(code7: string): string {
  return code7.length === 7 ? `${code7.slice(0, 4)}-${code7.slice(4, 5)}/${code7.slice(5)}` : code7;
}

/** Text as stored, "" for NULL. */
export function text(v: string | number | null): string {
  return v === null ? '' : typeof v === 'string' ? v : String(v);
}

/** Trimmed, internal runs of whitespace collapsed to one space. */
export function collapse(v: string | null): string {
  if (v === null) return '';
  const t = v.trim();
  // Most names have nothing to collapse: test before building a new string.
  return /\s\s|[^\S ]/.test(t) ? t.replace(/\s+/g, ' ') : t;
}

/** Only the digits (phone numbers, area codes). */
export function digitsOnly(v: string | number | null): string {
  if (v === null) return '';
  const t = String(v);
  return /^\d*$/.test(t) ? t : t.replace(/\D+/g, '');
}

/** Simples/MEI option flag: S → SIM, N → NÃO, anything else → "". */
export function optionText(v: string | null | undefined): string {
  const t = v?.trim().toUpperCase();
  return t === 'S' ? 'SIM' : t === 'N' ? 'NÃO' : '';
}
