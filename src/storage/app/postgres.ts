// The PostgreSQL twin of sqlite.ts, for fleet mode (docs/fleet.md): app.db's tables in one
// PostgreSQL shared by every node.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { AppDatabase } from './schema.ts';
import { migrateToLatest } from './migrate.ts';
import { pgPool } from './pg-connect.ts';
import { DatabaseUnavailable, isDatabaseUnavailable } from './pg-errors.ts';
import { postgresMigrations } from './migrations/postgres/index.ts';

export interface AppPostgres {
  db: Kysely<AppDatabase>;
  pool: pg.Pool;
  /** Whether the schema is migrated (at once, unless opened with `startUnreachable`). */
  readonly migrated: boolean;
  /** Resolves when it is (never, when closed first). */
  readonly whenMigrated: Promise<void>;
  close(): Promise<void>;
}

export interface AppPostgresOptions {
  /** Connections the pool may open (pg's default: 10). */
  maxConnections?: number;
  /**
   * A server's start: when the database cannot be reached, return at once and migrate in the
   * background, retrying every RETRY_MIGRATION_MS; until then every query through `db` or `pool`
   * fails as DatabaseUnavailable (the API answers 503), and nothing reads a schema not yet checked.
   * `log` tells the operator about the outage once and when it ends.
   */
  startUnreachable?: { log: (line: string) => void };
}

/** How often a node that started during an outage tries its database again. */
export const RETRY_MIGRATION_MS = 1_000;

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
  const pool = pgPool(url, {
    max: options.maxConnections,
    types,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection the server dropped: the pool discards it and the next query opens another;
  // without a listener the event would end the process. A connection checked out of the pool has
  // no listener of pg-pool's: one the server ends between two queries (a restart, a failover)
  // would end the process too, so every connection gets one; the next query on it fails instead.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const connect = pool.connect.bind(pool);
  let migrated = false;
  let closed = false;
  let resolveMigrated!: () => void;
  const whenMigrated = new Promise<void>((r) => (resolveMigrated = r));
  // The gate: pool.query() and kysely both take their connections through pool.connect().
  const notYet = () =>
    new DatabaseUnavailable(new Error('the app schema is not migrated yet (database unreachable since start)'));
  pool.connect = ((callback?: (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
    if (migrated) return connect(callback as never);
    if (!callback) return Promise.reject(notYet());
    process.nextTick(() => callback(notYet()));
  }) as typeof pool.connect;
  const db = new Kysely<AppDatabase>({ dialect: new PostgresDialect({ pool }) });
  // Migrates through the pool's own connect (past the gate); ending it ends nothing.
  const migrate = async () => {
    const migrator = new Kysely<AppDatabase>({
      dialect: new PostgresDialect({ pool: { connect: () => connect(), end: async () => {} } }),
    });
    // Safe with N nodes starting at once: kysely's Migrator takes an advisory lock on PostgreSQL.
    await migrateToLatest(migrator, postgresMigrations, 'PostgreSQL app schema');
    await migrator.destroy();
    migrated = true;
    resolveMigrated();
  };
  const unreachable = (err: unknown) => isDatabaseUnavailable(err) || isDatabaseUnavailable((err as Error).cause);
  try {
    await migrate();
  } catch (err) {
    if (!options.startUnreachable || !unreachable(err)) {
      await db.destroy();
      throw err;
    }
    const { log } = options.startUnreachable;
    const why = ((err as Error).cause as Error | undefined)?.message ?? (err as Error).message;
    log(
      `shared database unreachable at start (${why}): answering 503 until it answers, trying every ${RETRY_MIGRATION_MS / 1000} s`,
    );
    let said = (err as Error).message;
    void (async () => {
      while (!closed && !migrated) {
        await new Promise((r) => setTimeout(r, RETRY_MIGRATION_MS).unref());
        if (closed) return;
        try {
          await migrate();
          log('shared database reachable: app schema migrated, serving');
        } catch (e) {
          // Not an outage (a schema newer than this binary…): said once, tried again all the same.
          const message = (e as Error).message;
          if (!unreachable(e) && message !== said) log(`shared database: ${message}`);
          said = message;
        }
      }
    })();
  }
  return {
    db,
    pool,
    get migrated() {
      return migrated;
    },
    whenMigrated,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy(); // ends the pool
    },
  };
}
