// The app state as a serving process uses it, one handle whatever the backend: the store the
// domain's functions take, the metering's reads and counts, the API's own writes, and in fleet
// mode the shared database's probe. On app.db the API counts and writes on a connection of its
// own that commits without fsync, made durable by a WAL flush off the event loop before any
// answer leaves (WalSync); on PostgreSQL everything goes through the store's pool.
import { Kysely, SqliteDialect } from 'kysely';
import { dataPaths } from '../../lib/config.ts';
import { FleetProbe } from './fleet-probe.ts';
import type { ContactsStore, MeteringStore } from './metering.ts';
import { PgMetering } from './metering-postgres.ts';
import { SqliteMetering } from './metering-sqlite.ts';
import type { AppDatabase } from './schema.ts';
import { openAppSqlite } from './sqlite.ts';
import type { AppStore, NodeAppStore } from './store.ts';
import { WalSync } from './wal-sync.ts';
import { writeWithoutWaiting } from './write-retry.ts';

export interface ApiState {
  /** The node's app state, for every read and every write that is not the API's own. */
  readonly store: NodeAppStore;
  /** What the metering reads and counts, and the extra contacts the lookups show. */
  readonly metering: MeteringStore & ContactsStore;
  /**
   * One of the API's writes (the watchlist's), committed without waiting in SQLite for another
   * process's write lock (app.db: retried on later turns meanwhile). Durable after durable().
   */
  write<T>(fn: (store: AppStore) => Promise<T>): Promise<T>;
  /** Resolves once the writes committed so far are on disk (on PostgreSQL, at once: a commit is). */
  durable(): Promise<void>;
  /** Fleet mode: the shared database's probe (readiness, the fleet's due release). */
  readonly fleet?: FleetProbe;
  /** Closes what this handle opened (the API's connection); the store stays the caller's. */
  close(): void;
}

export function openApiState(store: NodeAppStore): ApiState {
  if (store.backend === 'postgres') {
    const pool = store.pool!;
    return {
      store,
      metering: new PgMetering(pool),
      write: (fn) => fn(store),
      durable: () => Promise.resolve(),
      fleet: new FleetProbe(pool),
      close() {},
    };
  }
  const sqlite = openAppSqlite(store.dataDir, 'api');
  const walSync = new WalSync(`${dataPaths(store.dataDir).appDb}-wal`);
  // The same statements as the store's, on the API's connection.
  const writer: AppStore = {
    backend: 'sqlite',
    db: new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database: sqlite }) }),
  };
  return {
    store,
    metering: new SqliteMetering(sqlite, walSync),
    write: (fn) => writeWithoutWaiting(sqlite, () => fn(writer)),
    durable: () => walSync.sync(),
    close() {
      sqlite.close();
      walSync.close();
    },
  };
}
