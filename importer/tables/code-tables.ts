// The six code → description tables (2 fields each).
import { codeTable, type CodeTable } from '../../src/storage/snapshots/tables.ts';
import { code, text } from './fields.ts';
import { defineSource, type SourceTable } from './source-table.ts';

/** The Receita's layout of the code tables. */
export const CODE_TABLE_LAYOUT = ['codigo', 'descricao'] as const;

export function codeTableSource(name: CodeTable): SourceTable {
  return defineSource({
    table: codeTable(name),
    layout: CODE_TABLE_LAYOUT,
    from: { code: 'codigo', description: 'descricao' },
    toRow(f) {
      const c = code(f[0]);
      if (c === null) return 'empty code';
      return [c, text(f[1])];
    },
  });
}
