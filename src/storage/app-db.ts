// Opening app.db: WAL, durable commits, migrations to the latest version.
import fs from 'node:fs';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider } from 'kysely';
import { dataPaths } from '../lib/config.ts';
import { migrations } from './migrations/index.ts';
import type { AppDatabase } from './app-schema.ts';
import { openSqlite, type Sqlite } from './sqlite.ts';

export interface AppDb {
  sqlite: Sqlite;
  db: Kysely<AppDatabase>;
  dataDir: string;
  close(): Promise<void>;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export function openAppSqlite(dataDir: string): Sqlite {
  const paths = dataPaths(dataDir);
  fs.mkdirSync(paths.root, { recursive: true });
  const sqlite = openSqlite(paths.appDb);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a committed account, token or counted call survives a power cut, not only a crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}

/** Opens (creating if needed) app.db in the data dir and migrates it to the latest schema. */
export async function openAppDb(dataDir: string): Promise<AppDb> {
  const sqlite = openAppSqlite(dataDir);
  const db = new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    await db.destroy();
    throw new Error(`app.db migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
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
