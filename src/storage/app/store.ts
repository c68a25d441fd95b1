// App state (accounts, users, tokens, plans, usage, watchlists, webhooks, sessions, the login
// throttle) behind one interface with two backends: app.db (SQLite, the embedded default) or one
// PostgreSQL shared by a fleet of nodes (--database-url, docs/fleet.md). The domain writes each
// statement once, with kysely, against AppStore; only the API's hot path has one implementation
// per backend.
//
// Registry data never moves: the active-snapshot pointer (registry_snapshots) stays in each
// node's own app.db, which is why an opened store always has `local`.
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { openAppDb, type AppDb } from './sqlite.ts';
import { openAppPostgres, type AppPostgresOptions } from './postgres.ts';
import { DatabaseUrlError, parseDatabaseUrl } from './pg-connect.ts';
import type { AppDatabase } from './schema.ts';

export type AppBackend = 'sqlite' | 'postgres';

/** The environment variable that selects PostgreSQL when --database-url is not given. */
export const DATABASE_URL_ENV = 'CNPJ_API_DATABASE_URL';

/**
 * What the domain's app-state functions take: the backend (for the few statements that differ)
 * and a kysely handle, which inside writeTransaction() is the transaction's.
 */
export interface AppStore {
  readonly backend: AppBackend;
  readonly db: Kysely<AppDatabase>;
  /** Set on the store a writeTransaction() hands its callback. */
  readonly inTransaction?: boolean;
}

export interface OpenAppStore extends AppStore {
  readonly dataDir: string;
  /**
   * This node's app.db: the active-snapshot pointer on both backends; with the SQLite backend it
   * also holds all app state (its kysely handle is `db`). In fleet mode only when asked for
   * (openNodeStore): an operator command off the nodes creates no app.db.
   */
  readonly local?: AppDb;
  /** PostgreSQL only: the pool behind `db` (the hot path runs its own statements on it). */
  readonly pool?: pg.Pool;
  /** PostgreSQL only: the URL with any password replaced by `***`, for logs and `status`. */
  readonly where: string;
  /**
   * Whether the schema is migrated, and a promise of it: at once, unless a server started while its
   * PostgreSQL was unreachable (startUnreachable), which migrates when the database answers.
   */
  readonly migrated: boolean;
  readonly whenMigrated: Promise<void>;
  close(): Promise<void>;
}

/** The app state of a node: with its app.db, whichever the backend. */
export interface NodeAppStore extends OpenAppStore {
  readonly local: AppDb;
}

/** A database URL without its password, fit for a log line. */
export function redactDatabaseUrl(url: string): string {
  // Not WHATWG URL: libpq's forms (an empty host with ?host=/socket/dir) do not parse as one.
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^@/?#]*@/i, '$1:***@');
}

/** Why `url` is not a PostgreSQL URL this project can open, or null. */
export function databaseUrlProblem(url: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url);
  if (!scheme) return 'not a URL (expected postgres://user:password@host:5432/database)';
  const name = scheme[1].toLowerCase();
  if (name !== 'postgres' && name !== 'postgresql')
    return `unsupported scheme "${name}" (only postgres:// and postgresql://)`;
  try {
    parseDatabaseUrl(url);
  } catch (err) {
    if (err instanceof DatabaseUrlError) return err.message;
    throw err;
  }
  return null;
}

export interface OpenAppStoreOptions {
  /** PostgreSQL: the pool's size (pg's default 10). */
  maxConnections?: number;
  /** PostgreSQL: a server's start, which goes on during an outage (AppPostgresOptions). */
  startUnreachable?: AppPostgresOptions['startUnreachable'];
}

/**
 * Opens the app state the options name: app.db in `dataDir` (created and migrated), or, given a
 * database URL, the PostgreSQL app schema (created and migrated on first use) and no app.db.
 */
export function openAppStore(
  dataDir: string,
  databaseUrl?: string,
  options: OpenAppStoreOptions = {},
): Promise<OpenAppStore> {
  return databaseUrl ? openPostgresStore(dataDir, databaseUrl, options, null) : openNodeStore(dataDir);
}

/**
 * Opens the app state of a node: app.db in `dataDir` (created and migrated), and, given a
 * database URL, the PostgreSQL app schema as well, for everything but the registry pointer.
 */
export async function openNodeStore(
  dataDir: string,
  databaseUrl?: string,
  options: OpenAppStoreOptions = {},
): Promise<NodeAppStore> {
  const local = await openAppDb(dataDir);
  if (databaseUrl) return openPostgresStore(dataDir, databaseUrl, options, local);
  {
    return {
      backend: 'sqlite',
      db: local.db,
      dataDir,
      local,
      where: local.sqlite.name,
      migrated: true,
      whenMigrated: Promise.resolve(),
      close: () => local.close(),
    };
  }
}

async function openPostgresStore<L extends AppDb | null>(
  dataDir: string,
  databaseUrl: string,
  options: OpenAppStoreOptions,
  local: L,
): Promise<L extends AppDb ? NodeAppStore : OpenAppStore> {
  try {
    const problem = databaseUrlProblem(databaseUrl);
    if (problem) throw new Error(`invalid database URL: ${problem}`);
    const pgStore = await openAppPostgres(databaseUrl, options);
    const store: OpenAppStore = {
      backend: 'postgres',
      db: pgStore.db,
      pool: pgStore.pool,
      dataDir,
      ...(local && { local }),
      where: redactDatabaseUrl(databaseUrl),
      get migrated() {
        return pgStore.migrated;
      },
      whenMigrated: pgStore.whenMigrated,
      async close() {
        await pgStore.close();
        await local?.close();
      },
    };
    return store as L extends AppDb ? NodeAppStore : OpenAppStore;
  } catch (err) {
    await local?.close();
    throw err;
  }
}

/**
 * Runs `fn` in one transaction that may read, decide and write: on SQLite BEGIN IMMEDIATE (the
 * file's write lock from the start, so what was read still holds at the write); on PostgreSQL a
 * READ COMMITTED transaction in which each read-then-write takes its own lock first (lockFor()).
 * Inside, use only the store handed to `fn` (the outer one would wait for this very transaction
 * on SQLite's single connection). Nested calls run in the enclosing transaction.
 */
export async function writeTransaction<T>(app: AppStore, fn: (tx: AppStore) => Promise<T>): Promise<T> {
  if (app.inTransaction) return fn(app);
  return app.db.connection().execute(async (conn) => {
    await sql.raw(app.backend === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN').execute(conn);
    let result: T;
    try {
      result = await fn({ backend: app.backend, db: conn, inTransaction: true });
    } catch (err) {
      await sql
        .raw('ROLLBACK')
        .execute(conn)
        .catch(() => {});
      throw err;
    }
    await sql.raw('COMMIT').execute(conn);
    return result;
  });
}

/**
 * Runs `fn`'s reads in one transaction that sees one moment: on PostgreSQL REPEATABLE READ (one
 * snapshot for every statement, where READ COMMITTED takes one per statement); on SQLite a read
 * transaction. Inside, use only the store handed to `fn`.
 */
export async function readTransaction<T>(store: AppStore, fn: (tx: AppStore) => Promise<T>): Promise<T> {
  const begin =
    store.backend === 'postgres' ? store.db.transaction().setIsolationLevel('repeatable read') : store.db.transaction();
  return begin.execute((trx) => fn({ backend: store.backend, db: trx }));
}

/**
 * Inside writeTransaction(): serializes every transaction that locks the same key until it ends
 * (a PostgreSQL transaction-scoped advisory lock; SQLite's BEGIN IMMEDIATE already holds the
 * whole file, so nothing to do). Used where a decision reads rows another node could change
 * meanwhile: a watchlist's limit, the last billing administrator, an account's webhook count,
 * the login throttle's counters.
 */
export async function lockFor(tx: AppStore, ...key: (string | number)[]): Promise<void> {
  if (!tx.inTransaction) throw new Error('lockFor() outside writeTransaction()');
  if (tx.backend === 'sqlite') return;
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key.join('\u001f')}, 0))`.execute(tx.db);
}

/** Whether `err` is a unique or primary-key violation, on either backend. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
