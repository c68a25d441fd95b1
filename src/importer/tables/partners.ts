// Sócios (`*.SOCIOCSV`, 11 fields) → partners. No natural key: every row is kept.
import { partners } from '../../storage/snapshots/tables.ts';
import { code, date, keyPart, text } from './fields.ts';
import type { SourceTable } from './source-table.ts';

export const partnersSource: SourceTable = {
  table: partners,
  fields: 11,
  toRow(f) {
    const base = keyPart(f[0], 8);
    if (!base) return 'malformed CNPJ base';
    return [base, code(f[1]), text(f[2]), text(f[3]), code(f[4]), date(f[5]), code(f[6]), text(f[7]), text(f[8]), code(f[9]), code(f[10])];
  },
};
