// Moving a month recorded in staging history files (an import records into its build folder while
// the search index builds, the establishments' and the companies' changes in two files at once)
// into history.db, in ONE transaction: the month's earlier rows are replaced whole, and a failure
// or a kill leaves history.db as it was. The import does this just before it publishes, so
// history.db never holds the differences of a month that was not published.
import { HISTORY_SQL } from './schema.ts';
import { SUBJECTS_SQL } from './subjects.ts';
import type { Sqlite } from '../sqlite.ts';
import { withWriteCache } from './db.ts';

const COLUMNS = 'month, cnpj, campo, tipo, antes, depois';

interface StagedMonth {
  from_month: string;
  recorded_at: string;
  counts_json: string;
  seconds: number;
}

/** What was moved: the rows, and the month's counts added over the files. */
export interface MergedMonth {
  rows: number;
  counts: Record<string, number>;
}

/**
 * Copies `month` from the history files `stagingFiles` into `db` (the real history.db). The files hold disjoint changes; a CNPJ shown in two of them (a head office
 * with changes of its own and of its company) gets one subject with both files' kinds.
 */
export function mergeStagedMonth(db: Sqlite, stagingFiles: readonly string[], month: string): MergedMonth {
  const schemas: string[] = [];
  try {
    // ATTACH is refused inside a transaction: all of them first.
    for (const file of stagingFiles) {
      db.prepare(`ATTACH DATABASE ? AS staged${schemas.length}`).run(file);
      schemas.push(`staged${schemas.length}`);
    }
    return withWriteCache(db, () =>
      db
        .transaction(() => {
          const staged = schemas.map(
            (s) =>
              db
                .prepare(
                  `SELECT from_month, recorded_at, counts_json, seconds FROM ${s}.history_months WHERE month = ?`,
                )
                .get(month) as StagedMonth | undefined,
          );
          if (staged.some((m) => m === undefined)) throw new Error(`a staged history holds no month ${month}`);
          db.prepare(HISTORY_SQL.deleteMonth).run(month);
          db.prepare(SUBJECTS_SQL.deleteMonth).run(month);
          let rows = 0;
          for (const s of schemas) {
            // In key order: the new month's rows append to the clustered tables.
            rows += db
              .prepare(
                `INSERT INTO changes (${COLUMNS}) SELECT ${COLUMNS} FROM ${s}.changes WHERE month = ? ORDER BY cnpj, campo`,
              )
              .run(month).changes;
            db.prepare(SUBJECTS_SQL.upsertFrom(s)).run(month);
          }
          // The municipality names come from the newest recorded month (subjects.ts).
          const newest = db.prepare('SELECT max(month) FROM history_months').pluck().get() as string | null;
          if (newest === null || month >= newest) {
            db.exec(SUBJECTS_SQL.clearNames);
            db.exec(`INSERT INTO municipio_names (name, code) SELECT name, code FROM ${schemas[0]}.municipio_names`);
          }
          const counts: Record<string, number> = {};
          for (const m of staged)
            for (const [k, n] of Object.entries(JSON.parse(m!.counts_json) as Record<string, number>))
              counts[k] = (counts[k] ?? 0) + n;
          const last = staged.reduce((a, b) => (b!.recorded_at > a!.recorded_at ? b : a))!;
          db.prepare(HISTORY_SQL.putMonth).run(
            month,
            last.from_month,
            last.recorded_at,
            JSON.stringify(counts),
            Math.max(...staged.map((m) => m!.seconds)),
          );
          return { rows, counts };
        })
        .immediate(),
    );
  } finally {
    for (const s of schemas) db.exec(`DETACH DATABASE ${s}`);
  }
}
