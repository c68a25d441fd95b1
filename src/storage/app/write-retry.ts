// A write on the API's own app.db connection that never lets SQLite's busy handler sleep on the
// event loop: while another process holds the write lock (a CLI import of contacts, another
// worker's commit), it is tried again a millisecond later, for up to 10 s, as the group commit
// does (metering-sqlite.ts); meanwhile the process answers its other requests.
import type { Sqlite } from '../sqlite.ts';

/** How long a write keeps trying for the lock before it fails (500, as a counted call would). */
export const WRITE_LOCK_WAIT_MS = 10_000;

const isBusy = (err: unknown) => (err as { code?: string }).code === 'SQLITE_BUSY';

/**
 * `write` (a transaction on `sqlite`: synchronous, or kysely's over better-sqlite3, whose
 * statements run synchronously and whose awaits are microtasks only, so no other work of the
 * process runs on the connection meanwhile) once it gets the write lock.
 */
export async function writeWithoutWaiting<T>(
  sqlite: Sqlite,
  write: () => T | Promise<T>,
  maxMs = WRITE_LOCK_WAIT_MS,
): Promise<T> {
  const started = Date.now();
  const timeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
  for (;;) {
    // A PRAGMA acts when prepared: each is prepared afresh.
    sqlite.pragma('busy_timeout = 0');
    try {
      return await write();
    } catch (err) {
      if (!isBusy(err) || Date.now() - started >= maxMs) throw err;
    } finally {
      sqlite.pragma(`busy_timeout = ${Number.isInteger(timeout) ? timeout : 10_000}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
