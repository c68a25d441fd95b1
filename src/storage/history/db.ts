// history.db: opened (created and set up when new) beside the snapshots. Its own file so that
// pruning snapshots never touches it and a month's recording never holds app.db's write lock.
import fs from 'node:fs';
import { dataPaths } from '../../lib/config.ts';
import { openSqlite, type Sqlite } from '../sqlite.ts';
import {
  HISTORY_DDL,
  HISTORY_SCHEMA_VERSION,
  HISTORY_SQL,
  MIGRATE_2_TO_3,
  type ChangeRow,
  type HistoryMonth,
} from './schema.ts';

export function openHistoryDb(dataDir: string): Sqlite {
  const paths = dataPaths(dataDir);
  fs.mkdirSync(paths.root, { recursive: true });
  const db = openSqlite(paths.historyDb);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 10000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== 0 && version !== 2 && version !== HISTORY_SCHEMA_VERSION) {
      throw new Error(`${paths.historyDb} has schema version ${version}, this program reads ${HISTORY_SCHEMA_VERSION}`);
    }
    db.transaction(() => {
      if (version === 2) for (const sql of MIGRATE_2_TO_3) db.exec(sql);
      for (const ddl of HISTORY_DDL) db.exec(ddl);
      db.pragma(`user_version = ${HISTORY_SCHEMA_VERSION}`);
    })();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

interface MonthRaw {
  month: string;
  from_month: string;
  recorded_at: string;
  counts_json: string;
  seconds: number;
}

/** The recorded months, newest first. */
export function historyMonths(db: Sqlite): HistoryMonth[] {
  return (db.prepare(HISTORY_SQL.months).all() as MonthRaw[]).map((r) => ({
    month: r.month,
    fromMonth: r.from_month,
    recordedAt: r.recorded_at,
    counts: JSON.parse(r.counts_json) as Record<string, number>,
    seconds: r.seconds,
  }));
}

/** A page of one month's changes after the key `after` (from the start: ['', '']), in (cnpj, campo) order. */
export function changesPage(
  db: Sqlite,
  month: string,
  after: readonly [cnpj: string, campo: string],
  limit: number,
): ChangeRow[] {
  return db.prepare(HISTORY_SQL.page).all(month, after[0], after[1], limit) as ChangeRow[];
}

/** Every recorded change of a CNPJ and of its base (company-level fields), newest month first. */
export function changesOf(db: Sqlite, cnpj: string): ChangeRow[] {
  const stmt = db.prepare(HISTORY_SQL.ofKey);
  const rows = [
    ...(stmt.all(cnpj) as ChangeRow[]),
    ...(cnpj.length > 8 ? (stmt.all(cnpj.slice(0, 8)) as ChangeRow[]) : []),
  ];
  return rows.sort((a, b) => (a.month === b.month ? 0 : a.month > b.month ? -1 : 1));
}

/**
 * The page cache (KiB, as a negative cache_size) of a connection writing or merging a month, and
 * of the recording's scratch database (gathered-subjects.ts). better-sqlite3's default is 16 MB;
 * a full-size month (~2.8 M changes, ~1.3 M subjects) sorts more than that, and the subjects'
 * three secondary indexes have ~7,000 insertion points (one per UF, municipality, CNAE) whose
 * pages should stay cached while the subjects go in in CNPJ order. Bounded, whatever the size.
 */
export const HISTORY_WRITE_CACHE_KIB = 131072;

/** Runs `fn` with the larger page cache above, then puts the connection's setting back. */
export function withWriteCache<T>(db: Sqlite, fn: () => T): T {
  const was = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = -${HISTORY_WRITE_CACHE_KIB}`);
  try {
    return fn();
  } finally {
    db.pragma(`cache_size = ${was}`);
  }
}

/**
 * Writes one month's changes in ONE transaction: that month's earlier rows are deleted first, so a
 * re-recorded month replaces its differences whole, and a failure (or a kill) leaves the history as
 * it was. `write` receives the insert function and returns the month's counts; `then` runs in the
 * same transaction once they are in \`changes\` (the feed subjects, read from them).
 *
 * The changes are appended to a temporary table as they come and moved into \`changes\` sorted by
 * key (SQLite's external sort: memory bounded): inserted as they came, in the new snapshot's table
 * order, each landed at random in the clustered table and its index.
 */
export function writeMonth(
  db: Sqlite,
  month: string,
  fromMonth: string,
  write: (
    insert: (cnpj: string, tipo: ChangeRow['tipo'], campo: string, antes: string | null, depois: string | null) => void,
  ) => Record<string, number>,
  then?: () => void,
): Record<string, number> {
  const started = process.hrtime.bigint();
  // A temporary table: it lives on this connection only, and goes with it if the process dies.
  db.exec(HISTORY_SQL.createStaged);
  try {
    const stage = db.prepare(HISTORY_SQL.stage);
    return withWriteCache(db, () =>
      db
        .transaction(() => {
          db.prepare(HISTORY_SQL.deleteMonth).run(month);
          const counts = write((cnpj, tipo, campo, antes, depois) => stage.run(cnpj, campo, tipo, antes, depois));
          db.prepare(HISTORY_SQL.moveStaged).run(month);
          then?.();
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          db.prepare(HISTORY_SQL.putMonth).run(
            month,
            fromMonth,
            new Date().toISOString(),
            JSON.stringify(counts),
            seconds,
          );
          return counts;
        })
        .immediate(),
    );
  } finally {
    db.exec(HISTORY_SQL.dropStaged);
  }
}

/**
 * A read-only connection for the server (change feed, histories, watchlists, webhooks), or null
 * while no month has been recorded (no history.db yet). WAL lets it read while an import records.
 */
export function openHistoryReader(dataDir: string): Sqlite | null {
  const file = dataPaths(dataDir).historyDb;
  if (!fs.existsSync(file)) return null;
  let db = openSqlite(file, { readonly: true, fileMustExist: true });
  if ((db.pragma('user_version', { simple: true }) as number) !== HISTORY_SCHEMA_VERSION) {
    // An older layout (a server upgraded in place): migrated once by a writing connection.
    db.close();
    openHistoryDb(dataDir).close();
    db = openSqlite(file, { readonly: true, fileMustExist: true });
  }
  db.pragma('busy_timeout = 5000');
  return db;
}
