// One recorded month of history.db as a file of its own, in history.db's layout: what a release
// carries so that a node can merge the month (merge.ts) exactly as the publisher recorded it.
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../../lib/config.ts';
import type { Sqlite } from '../sqlite.ts';
import { openHistoryDb } from './db.ts';

const TABLES = ['changes', 'subjects'] as const;

function columnsOf(db: Sqlite, table: string): string {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[])
    .map((c) => c.name)
    .join(', ');
}

/** Writes `month` of `history` into a new history.db inside `dir` and returns that file's path. */
export function exportMonth(history: Sqlite, dir: string, month: string): string {
  fs.rmSync(dir, { recursive: true, force: true });
  const out = openHistoryDb(dir);
  const file = dataPaths(dir).historyDb;
  try {
    out.pragma('journal_mode = DELETE');
    out.prepare('ATTACH DATABASE ? AS src').run(history.name);
    out.transaction(() => {
      for (const t of TABLES) {
        // By name: a history.db migrated from version 2 has the later columns in another order.
        const cols = columnsOf(out, t);
        out
          .prepare(`INSERT INTO main.${t} (${cols}) SELECT ${cols} FROM src.${t} WHERE month = ? ORDER BY cnpj`)
          .run(month);
      }
      out.exec('INSERT INTO main.municipio_names SELECT name, code FROM src.municipio_names');
      const cols = columnsOf(out, 'history_months');
      out
        .prepare(`INSERT INTO main.history_months (${cols}) SELECT ${cols} FROM src.history_months WHERE month = ?`)
        .run(month);
    })();
    out.exec('DETACH DATABASE src');
  } finally {
    out.close();
  }
  for (const extra of ['-wal', '-shm']) fs.rmSync(file + extra, { force: true });
  return path.resolve(file);
}
