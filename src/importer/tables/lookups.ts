// The six code → description tables (2 fields each).
import { lookupTable, type LookupTable } from '../../storage/snapshots/tables.ts';
import { code, text } from './fields.ts';
import type { SourceTable } from './source-table.ts';

export function lookupSource(name: LookupTable): SourceTable {
  return {
    table: lookupTable(name),
    fields: 2,
    toRow(f) {
      const c = code(f[0]);
      if (c === null) return 'empty code';
      return [c, text(f[1])];
    },
  };
}
