// Empresas (`*.EMPRECSV`, 7 fields) → companies.
import { companies } from '../../storage/snapshots/tables.ts';
import { cents, code, keyPart, text } from './fields.ts';
import type { SourceTable } from './source-table.ts';

export const companiesSource: SourceTable = {
  table: companies,
  fields: 7,
  toRow(f) {
    const base = keyPart(f[0], 8);
    if (!base) return 'malformed CNPJ base';
    return [base, text(f[1]), code(f[2]), code(f[3]), cents(f[4]), code(f[5]), text(f[6])];
  },
};
