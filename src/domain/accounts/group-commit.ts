// Group commit: the calls submitted in one event-loop turn run together in ONE transaction (one
// WAL commit, one flush to disk for the lot), and each promise settles only once that commit is
// durable, so an answered call is never lost in a crash. With a WalSync the commit goes into the
// WAL without fsync and the flush is WalSync's fdatasync off the event loop; without one, the
// connection's own synchronous=FULL COMMIT is the flush, on the calling thread.
//
// One flush at a time: calls arriving while a flush is on its way wait for it to end and then
// share the next transaction. Under load a group grows to what arrives during one fdatasync
// instead of what arrived in one event-loop turn, and both costs are per group: a transaction
// costs ~30 µs of CPU whatever its size, an fdatasync here ~100 µs of CPU (kernel and thread
// pool) and milliseconds of disk. When idle, a call still commits on the next turn.
import type { Sqlite } from '../../storage/sqlite.ts';
import type { WalSync } from '../../storage/wal-sync.ts';

/** Told of each grouped batch once it is durable: its size and the seconds from BEGIN to durable. */
export type OnCommitted = (size: number, seconds: number) => void;

/** How long a batch keeps retrying for the write lock before its calls fail (500). */
const LOCK_WAIT_MS = 10_000;

interface Pending<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
  /** Date.now() of the batch's first failed attempt at the lock; 0 before. */
  since: number;
}

export class GroupCommit<T, R> {
  /** `work` inside BEGIN IMMEDIATE … COMMIT: the write lock up front, all or nothing. */
  private readonly tx: (items: T[]) => R[];
  private pending: Pending<T, R>[] = [];
  private flushScheduled = false;
  /** A batch's WAL flush is on its way: the next batch waits for it (see above). */
  private syncing = false;
  /** busy_timeout off / back on around the batch transaction (walSync mode only). */
  private readonly noWait: (() => void) | undefined;
  private readonly wait: (() => void) | undefined;

  /** `work` gets the items of a batch, in order, and returns one result for each. */
  constructor(
    sqlite: Sqlite,
    work: (items: T[]) => R[],
    private readonly walSync?: WalSync,
    private readonly onCommitted?: OnCommitted,
  ) {
    if (walSync) {
      const timeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
      // A PRAGMA acts when prepared, not when run: a prepared one cannot be reused.
      this.noWait = () => sqlite.pragma('busy_timeout = 0');
      this.wait = () => sqlite.pragma(`busy_timeout = ${Number.isInteger(timeout) ? timeout : 10_000}`);
    }
    const tx = sqlite.transaction(work);
    this.tx = (items) => tx.immediate(items);
  }

  /**
   * `items` in a transaction of their own, now, on the calling thread: waits in SQLite (its
   * busy_timeout) for another process's write lock, and is durable as the connection commits.
   */
  run(items: T[]): R[] {
    return this.tx(items);
  }

  /** The item's result, once the transaction of its turn is durable. */
  submit(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject, since: 0 });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(retry = false): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const run = () => {
      this.flushScheduled = false;
      this.flush();
    };
    // A retry waits a millisecond: a long-held lock (a big CLI import of contacts) must not spin.
    if (retry) setTimeout(run, 1);
    else setImmediate(run);
  }

  private flush(): void {
    if (this.syncing) return; // the flush on its way schedules the next batch when it ends
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    let results: R[];
    const start = this.onCommitted ? performance.now() : 0;
    try {
      results = this.runBatch(batch.map((b) => b.item));
    } catch (err) {
      if (this.noWait && (err as { code?: string }).code === 'SQLITE_BUSY') {
        // Another process holds the write lock: try again on a later turn instead of letting
        // SQLite's busy handler sleep (it would stop every request of this process meanwhile).
        const first = batch[0].since || Date.now();
        if (Date.now() - first < LOCK_WAIT_MS) {
          for (const b of batch) b.since ||= first;
          this.pending = batch.concat(this.pending);
          this.scheduleFlush(true);
          return;
        }
      }
      for (const b of batch) b.reject(err);
      return;
    }
    if (!this.walSync) {
      this.onCommitted?.(batch.length, (performance.now() - start) / 1000);
      return batch.forEach((b, i) => b.resolve(results[i]));
    }
    // Committed, not yet durable: answer once the WAL is on disk, then commit what came meanwhile.
    this.syncing = true;
    this.walSync.sync().then(
      () => {
        this.onCommitted?.(batch.length, (performance.now() - start) / 1000);
        this.synced(batch, (b, i) => b.resolve(results[i]));
      },
      (err: unknown) => this.synced(batch, (b) => b.reject(err)),
    );
  }

  private synced(batch: Pending<T, R>[], settle: (b: Pending<T, R>, i: number) => void): void {
    this.syncing = false;
    batch.forEach(settle);
    if (this.pending.length > 0) this.scheduleFlush();
  }

  /** The batch transaction; with walSync, without waiting in SQLite for the write lock. */
  private runBatch(items: T[]): R[] {
    if (!this.noWait) return this.tx(items);
    this.noWait();
    try {
      return this.tx(items);
    } finally {
      this.wait!();
    }
  }
}
