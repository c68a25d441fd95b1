// Regime tributário CSVs (`ano,cnpj,cnpj_da_scp,forma_de_tributacao,quantidade_de_escrituracoes`) → regimes.
import { regimes } from '../../src/registry/tables.ts';
import { code, text } from './fields.ts';
import type { SourceTable } from './source-table.ts';

export const REGIME_HEADER = ['ano', 'cnpj', 'cnpj_da_scp', 'forma_de_tributacao', 'quantidade_de_escrituracoes'];

const FORMATTED = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d\d$/;

/** Formatted CNPJ → 14 characters. Only the punctuation goes: letters stay (alphanumeric CNPJs). */
function bareCnpj(s: string): string {
  // The usual `00.000.000/0001-91`: slices are cheaper than a global replace.
  if (FORMATTED.test(s)) return s.slice(0, 2) + s.slice(3, 6) + s.slice(7, 10) + s.slice(11, 15) + s.slice(16);
  return s.trim().replace(/[./\-\s]/g, '').toUpperCase();
}

export const regimesSource: SourceTable = {
  table: regimes,
  fields: 5,
  toRow(f) {
    let cnpj = bareCnpj(f[1]);
    if (/^\d{1,13}$/.test(cnpj)) cnpj = cnpj.padStart(14, '0');
    if (!/^[0-9A-Z]{12}\d\d$/.test(cnpj)) return 'CNPJ malformado';
    const year = code(f[0]);
    if (typeof year !== 'number' || year < 1990 || year > 2100) return 'ano inválido';
    const scp = bareCnpj(f[2]);
    return [cnpj.slice(0, 8), cnpj, year, scp === '' || /^0+$/.test(scp) ? null : scp, text(f[3]), code(f[4])];
  },
};
