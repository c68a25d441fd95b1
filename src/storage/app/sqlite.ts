// The one way to open app.db: the connection, its pragmas per role, migrations to the latest
// version. The CLI, the server, the importer and the tests all come through here.
import fs from 'node:fs';
import { Kysely, SqliteDialect } from 'kysely';
import { dataPaths } from '../../lib/config.ts';
import { migrateToLatest } from './migrate.ts';
import { sqliteMigrations } from './migrations/sqlite/index.ts';
import type { AppDatabase } from './schema.ts';
import { openSqlite, type Sqlite } from '../sqlite.ts';

export interface AppDb {
  sqlite: Sqlite;
  db: Kysely<AppDatabase>;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * How a connection uses app.db; each role's pragmas live here and nowhere else.
 * - `main`: the CLI, the web app, the importer, tests. FULL: a committed account, token or
 *   counted call survives a power cut, not only a crash.
 * - `api`: the server's counting connection. Its counted calls commit without an fsync
 *   (NORMAL) and are made durable by WalSync off the event loop before any answer leaves (group
 *   commit, see storage/app/metering-sqlite.ts); app.db memory-mapped, as every count re-reads the same pages.
 * - `reader`: the registry reader's read-only connections (the active-snapshot pointer, and the
 *   one the snapshot is ATTACHed to); app.db must already exist (the server migrates it first).
 */
export type AppDbRole = 'main' | 'api' | 'reader';

const WRITER_PRAGMAS = ['journal_mode = WAL', 'busy_timeout = 10000', 'foreign_keys = ON'];
const PRAGMAS: Record<AppDbRole, string[]> = {
  main: [...WRITER_PRAGMAS, 'synchronous = FULL'],
  api: [...WRITER_PRAGMAS, 'synchronous = NORMAL', 'mmap_size = 268435456'],
  reader: ['busy_timeout = 5000'],
};

/** A better-sqlite3 connection to the data dir's app.db, set up for its role (no migrations). */
export function openAppSqlite(dataDir: string, role: AppDbRole = 'main'): Sqlite {
  const paths = dataPaths(dataDir);
  const readonly = role === 'reader';
  if (!readonly) fs.mkdirSync(paths.root, { recursive: true });
  const sqlite = openSqlite(paths.appDb, { readonly, fileMustExist: readonly });
  try {
    for (const p of PRAGMAS[role]) sqlite.pragma(p);
  } catch (err) {
    sqlite.close();
    throw err;
  }
  return sqlite;
}

/** Opens (creating if needed) app.db in the data dir and migrates it to the latest schema. */
export async function openAppDb(dataDir: string): Promise<AppDb> {
  const sqlite = openAppSqlite(dataDir);
  const db = new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrateToLatest(db, sqliteMigrations, 'app.db');
  let closed = false;
  return {
    sqlite,
    db,
    dataDir,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // also closes the better-sqlite3 handle
    },
  };
}

/**
 * Whether app.db, opened afresh (the file as it is on disk now, not a connection opened at start),
 * answers a trivial query within a second: the readiness probe's check. A fresh connection sees a
 * file removed, replaced or corrupted, or a volume gone, that the server's open connections do not.
 */
export function appDbAnswers(dataDir: string): boolean {
  let sqlite: Sqlite | undefined;
  try {
    sqlite = openSqlite(dataPaths(dataDir).appDb, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 1000');
    sqlite.prepare('SELECT 1 FROM plans LIMIT 1').get();
    return true;
  } catch {
    return false;
  } finally {
    sqlite?.close();
  }
}
