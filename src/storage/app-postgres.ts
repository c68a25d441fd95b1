// The PostgreSQL twin of app-db.ts, for fleet mode (docs/architecture.md): app.db's tables in one
// PostgreSQL shared by every node. Not selectable yet; the server and the CLI still open app.db.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { AppDatabase } from './app-schema.ts';
import { migrateToLatest } from './migrate.ts';
import { postgresMigrations } from './postgres-migrations/index.ts';

export interface AppPostgres {
  db: Kysely<AppDatabase>;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface AppPostgresOptions {
  /** Connections the pool may open (pg's default: 10). */
  maxConnections?: number;
}

/**
 * BIGINT (ids, counters, count(*)) and NUMERIC (sum() of a BIGINT) as numbers, as better-sqlite3
 * gives them, so the table types of app-schema.ts hold on both databases; pg's default is a
 * string. A value a number cannot hold exactly is an error, never a silently rounded count.
 */
function toNumber(text: string): number {
  const n = Number(text);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) throw new RangeError(`integer out of range: ${text}`);
  return n;
}

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) && format !== 'binary'
      ? toNumber
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** How long opening a connection may take before the query fails. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Connects to the PostgreSQL at `url` and migrates its app schema to the latest version. */
export async function openAppPostgres(url: string, options: AppPostgresOptions = {}): Promise<AppPostgres> {
  // A bounded connect: while the server is unreachable a query fails (503 on the API) instead of
  // waiting for the OS's TCP timeout; keepAlive finds a peer gone without a word.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections,
    types,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection the server dropped: the pool discards it and the next query opens another;
  // without a listener the event would end the process.
  pool.on('error', () => {});
  const db = new Kysely<AppDatabase>({ dialect: new PostgresDialect({ pool }) });
  // Safe with N nodes starting at once: kysely's Migrator takes an advisory lock on PostgreSQL.
  await migrateToLatest(db, postgresMigrations, 'PostgreSQL app schema');
  let closed = false;
  return {
    db,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // ends the pool
    },
  };
}
