// A write on the API's own app.db connection that never lets SQLite's busy handler sleep on the
// event loop: while another process holds the write lock (a CLI import of contacts, another
// worker's commit), it is tried again a millisecond later, for up to 10 s, as the group commit
// does (metering-sqlite.ts); meanwhile the process answers its other requests.
import type { Sqlite } from '../sqlite.ts';

/** How long a write keeps trying for the lock before it fails (500, as a counted call would). */
export const WRITE_LOCK_WAIT_MS = 10_000;

const isBusy = (err: unknown) => (err as { code?: string }).code === 'SQLITE_BUSY';

/**
 * Turns `sqlite`'s busy handler off (a locked database is SQLITE_BUSY at once, not a sleep that
 * blocks the event loop) and returns what turns it back on. A PRAGMA acts when prepared, not
 * when run, so each is prepared afresh.
 */
export function busyWaitOff(sqlite: Sqlite): () => void {
  const timeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
  sqlite.pragma('busy_timeout = 0');
  return () => sqlite.pragma(`busy_timeout = ${Number.isInteger(timeout) ? timeout : 10_000}`);
}

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
  for (;;) {
    const restore = busyWaitOff(sqlite);
    try {
      return await write();
    } catch (err) {
      if (!isBusy(err) || Date.now() - started >= maxMs) throw err;
    } finally {
      restore();
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
