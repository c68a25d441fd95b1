// Regime tributário CSVs (`ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes`) → regimes.
import { regimes } from '../../src/storage/snapshots/tables.ts';
import { code, text } from './fields.ts';
import { defineSource } from './source-table.ts';

/** The regime CSVs' header: their layout. */
export const REGIME_HEADER = [
  'ano',
  'cnpj',
  'cnpj_da_scp',
  'forma_de_tributacao',
  'quantidade_de_escrituracoes',
] as const;

const FORMATTED = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d\d$/;

/** Formatted CNPJ → 14 characters. Only the punctuation goes: letters stay (alphanumeric CNPJs). */
function bareCnpj(s: string): string {
  return s
    .trim()
    .replace(/[./\-\s]/g, '')
    .toUpperCase();
}

/** The 14-character CNPJ of a regime row, or null when it cannot be one. */
function regimeCnpj(s: string): string | null {
  // The usual `00.000.000/0001-91`: valid by its shape, and slices are cheaper than a replace.
  if (FORMATTED.test(s)) return s.slice(0, 2) + s.slice(3, 6) + s.slice(7, 10) + s.slice(11, 15) + s.slice(16);
  let cnpj = bareCnpj(s);
  if (/^\d{1,13}$/.test(cnpj)) cnpj = cnpj.padStart(14, '0');
  return /^[0-9A-Z]{12}\d\d$/.test(cnpj) ? cnpj : null;
}

/** The SCP's CNPJ; "0" (the usual value) and empty mean none. */
function scpCnpj(s: string): string | null {
  if (s === '0' || s === '') return null;
  const b = bareCnpj(s);
  return b === '' || /^0+$/.test(b) ? null : b;
}

export const regimesSource = defineSource({
  table: regimes,
  layout: REGIME_HEADER,
  from: {
    basico: 'cnpj',
    cnpj: 'cnpj',
    ano: 'ano',
    cnpj_scp: 'cnpj_da_scp',
    forma: 'forma_de_tributacao',
    escrituracoes: 'quantidade_de_escrituracoes',
  },
  toRow(f) {
    const cnpj = regimeCnpj(f[1]);
    if (cnpj === null) return 'malformed CNPJ';
    const year = code(f[0]);
    if (typeof year !== 'number' || year < 1990 || year > 2100) return 'invalid year';
    return [cnpj.slice(0, 8), cnpj, year, scpCnpj(f[2]), text(f[3]), code(f[4])];
  },
});
