// Simples (`*SIMPLES.CSV*`, 7 fields) → simples.
import { simples } from '../../storage/snapshots/tables.ts';
import { date, flag, keyPart } from './fields.ts';
import type { SourceTable } from './source-table.ts';

export const simplesSource: SourceTable = {
  table: simples,
  fields: 7,
  toRow(f) {
    const base = keyPart(f[0], 8);
    if (!base) return 'malformed CNPJ base';
    return [base, flag(f[1]), date(f[2]), date(f[3]), flag(f[4]), date(f[5]), date(f[6])];
  },
};
