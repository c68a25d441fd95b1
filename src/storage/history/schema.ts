// The change history's schema (history.db, docs/history.md): the one home of its tables, their
// indexes and the statements that write and read them.
//
// - One row per change: (month, cnpj, campo) is the key. `cnpj` is the 14-character CNPJ for an
//   establishment's fields, abertura and encerramento, and the 8-character base for the fields a
//   company's establishments share (razão social, natureza, capital, porte, Simples/MEI, sócios):
//   recorded once, not once per branch. `campo` is '' for abertura/encerramento.
// - WITHOUT ROWID, clustered on the key: the month's feed pages by (month, cnpj) read consecutive
//   leaves; a second index on (cnpj, month DESC) serves one company's history, newest month first
//   (its base's rows are the same index read with the 8-character key).
// - `antes`/`depois` are JSON texts of the values as the lookup shows them (NULL for abertura and
//   encerramento).

import { SUBJECTS_DDL, SUBJECTS_VERSION, V3_COLUMNS } from './subjects.ts';

export type Tipo = 'abertura' | 'encerramento' | 'alteracao';

export interface ChangeRow {
  month: string;
  cnpj: string;
  tipo: Tipo;
  /** '' for abertura and encerramento. */
  campo: string;
  antes: string | null;
  depois: string | null;
}

/** One recorded month: what it was compared with and how many changes of each kind it holds. */
export interface HistoryMonth {
  month: string;
  fromMonth: string;
  recordedAt: string;
  counts: Record<string, number>;
  seconds: number;
}

/**
 * Bumped when the layout changes (PRAGMA user_version). 2: the feed's subjects; 3: more subject
 * columns, and the month's subjects_version (a version 2 file is migrated on open: db.ts).
 */
export const HISTORY_SCHEMA_VERSION = 3;

export const HISTORY_DDL = [
  `CREATE TABLE IF NOT EXISTS history_months (
     month TEXT PRIMARY KEY,
     from_month TEXT NOT NULL,
     recorded_at TEXT NOT NULL,
     counts_json TEXT NOT NULL,
     seconds REAL NOT NULL,
     subjects_version INTEGER NOT NULL DEFAULT 2
   )`,
  `CREATE TABLE IF NOT EXISTS changes (
     month TEXT NOT NULL,
     cnpj TEXT NOT NULL,
     campo TEXT NOT NULL,
     tipo TEXT NOT NULL,
     antes TEXT,
     depois TEXT,
     PRIMARY KEY (month, cnpj, campo)
   ) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS changes_by_cnpj ON changes (cnpj, month DESC)`,
  // The change feed's filters (subjects.ts); version 2.
  ...SUBJECTS_DDL,
];

/** From version 2 to 3: the added columns (months recorded before keep them NULL, and say so). */
export const MIGRATE_2_TO_3 = [
  ...V3_COLUMNS.map(([c, t]) => `ALTER TABLE subjects ADD COLUMN ${c} ${t}`),
  `ALTER TABLE history_months ADD COLUMN subjects_version INTEGER NOT NULL DEFAULT 2`,
];

export const HISTORY_SQL = {
  /**
   * A month being recorded: its changes come in the comparison's order (the new snapshot's table
   * order, unrelated to the key), so they are appended to this unindexed temporary table first and
   * moved into \`changes\` sorted (db.ts, writeMonth).
   */
  createStaged: `CREATE TEMP TABLE IF NOT EXISTS staged_changes (cnpj TEXT NOT NULL, campo TEXT NOT NULL, tipo TEXT NOT NULL, antes TEXT, depois TEXT)`,
  stage: `INSERT INTO temp.staged_changes (cnpj, campo, tipo, antes, depois) VALUES (?, ?, ?, ?, ?)`,
  moveStaged: `INSERT INTO changes (month, cnpj, campo, tipo, antes, depois) SELECT ?, cnpj, campo, tipo, antes, depois FROM temp.staged_changes ORDER BY cnpj, campo`,
  dropStaged: `DROP TABLE IF EXISTS temp.staged_changes`,
  deleteMonth: `DELETE FROM changes WHERE month = ?`,
  putMonth: `INSERT OR REPLACE INTO history_months (month, from_month, recorded_at, counts_json, seconds, subjects_version) VALUES (?, ?, ?, ?, ?, ${SUBJECTS_VERSION})`,
  /** The subjects' layout a month was recorded with (SUBJECTS_VERSION then). */
  subjectsVersion: `SELECT subjects_version FROM history_months WHERE month = ?`,
  months: `SELECT month, from_month, recorded_at, counts_json, seconds FROM history_months ORDER BY month DESC`,
  /** A page of a month's feed after a (cnpj, campo) key (keyset; '', '' for the first page). */
  page: `SELECT month, cnpj, tipo, campo, antes, depois FROM changes WHERE month = ? AND (cnpj, campo) > (?, ?) ORDER BY cnpj, campo LIMIT ?`,
  /** Every change of one key (a CNPJ or a base), newest month first. */
  ofKey: `SELECT month, cnpj, tipo, campo, antes, depois FROM changes WHERE cnpj = ? ORDER BY month DESC, campo`,
} as const;
