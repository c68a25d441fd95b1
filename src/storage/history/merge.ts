// Moving a month recorded in a staging history file (an import records into its build folder while
// the search index builds) into history.db, in ONE transaction: the month's earlier rows are
// replaced whole, and a failure or a kill leaves history.db as it was. The import does this just
// before it publishes, so history.db never holds the differences of a month that was not published.
import { HISTORY_SQL } from './schema.ts';
import { SUBJECT_COLUMNS, SUBJECTS_SQL } from './subjects.ts';
import type { Sqlite } from '../sqlite.ts';

const COLUMNS = 'month, cnpj, campo, tipo, antes, depois';
const SUBJECTS = ['month', ...SUBJECT_COLUMNS].join(', ');

/** Copies `month` from the history file `stagingFile` into `db` (the real history.db); returns the rows copied. */
export function mergeStagedMonth(db: Sqlite, stagingFile: string, month: string): number {
  db.prepare(`ATTACH DATABASE ? AS staged`).run(stagingFile);
  try {
    return db.transaction(() => {
      if (!db.prepare(`SELECT 1 FROM staged.history_months WHERE month = ?`).get(month)) throw new Error(`the staged history holds no month ${month}`);
      db.prepare(HISTORY_SQL.deleteMonth).run(month);
      db.prepare(SUBJECTS_SQL.deleteMonth).run(month);
      // In key order: the new month's rows append to the clustered tables.
      const { changes } = db.prepare(`INSERT INTO changes (${COLUMNS}) SELECT ${COLUMNS} FROM staged.changes WHERE month = ? ORDER BY cnpj, campo`).run(month);
      db.prepare(`INSERT INTO subjects (${SUBJECTS}) SELECT ${SUBJECTS} FROM staged.subjects WHERE month = ? ORDER BY cnpj`).run(month);
      // The municipality names come from the newest recorded month (subjects.ts).
      const newest = db.prepare('SELECT max(month) FROM history_months').pluck().get() as string | null;
      if (newest === null || month >= newest) {
        db.exec(SUBJECTS_SQL.clearNames);
        db.exec('INSERT INTO municipio_names (name, code) SELECT name, code FROM staged.municipio_names');
      }
      db.prepare(`INSERT OR REPLACE INTO history_months SELECT month, from_month, recorded_at, counts_json, seconds FROM staged.history_months WHERE month = ?`).run(month);
      return changes;
    }).immediate();
  } finally {
    db.exec('DETACH DATABASE staged');
  }
}
