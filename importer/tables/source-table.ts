import type { ColumnType, TableDef } from '../../src/storage/snapshots/tables.ts';

export type SqlParam = string | number | bigint | null;

/** How one source file type becomes rows of one snapshot table. */
export interface SourceTable {
  readonly table: TableDef;
  /**
   * The source file's fields in file order, by name (the Receita's published layout; for the
   * regime CSVs, their header). Every valid record has exactly this many fields.
   */
  readonly layout: readonly string[];
  /**
   * For each table column, in the table's column order, the source field(s) it is made from.
   * toRow stays positional (the hot path); test/importer/tables/width.test.ts checks it against
   * this declaration, the table definition and the real files, field by field.
   */
  readonly from: Readonly<Record<string, string | readonly string[]>>;
  /** The row in the table's column order, or a reject reason (the record goes to the rejects file). */
  toRow(f: string[]): SqlParam[] | string;
}

type ColumnsOf<T extends { readonly columns: readonly (readonly [string, ColumnType])[] }> = T['columns'][number][0];

/**
 * A SourceTable whose declaration the compiler checks: every column of the table is given its
 * source, and every source named is a field of the layout.
 */
export function defineSource<const T extends TableDef, const L extends readonly string[]>(def: {
  table: T;
  layout: L;
  from: { readonly [C in ColumnsOf<T>]: L[number] | readonly L[number][] };
  toRow(f: string[]): SqlParam[] | string;
}): SourceTable {
  return def;
}
