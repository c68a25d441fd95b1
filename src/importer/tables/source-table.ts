import type { TableDef } from '../../storage/snapshots/tables.ts';

export type SqlParam = string | number | bigint | null;

/** How one source file type becomes rows of one snapshot table. */
export interface SourceTable {
  readonly table: TableDef;
  /** Field count of every valid source record. */
  readonly fields: number;
  /** The row in the table's column order, or a reject reason (the record goes to the rejects file). */
  toRow(f: string[]): SqlParam[] | string;
}
