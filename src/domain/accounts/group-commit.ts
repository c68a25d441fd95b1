// Group commit: the calls submitted in one event-loop turn run together in ONE transaction (one
// WAL commit, one flush to disk for the lot), and each promise settles only once that commit is
// durable, so an answered call is never lost in a crash. With a WalSync the commit goes into the
// WAL without fsync and the flush is WalSync's fdatasync off the event loop; without one, the
// connection's own synchronous=FULL COMMIT is the flush, on the calling thread.
//
// One flush at a time (metering/batch-queue.ts): calls arriving while a flush is on its way wait
// for it to end and then share the next transaction, so both per-group costs (the transaction's
// CPU, the fdatasync's CPU and disk time; docs/benchmarks.md) are paid once for the lot. When idle,
// a call still commits on the next turn.
import type { Sqlite } from '../../storage/sqlite.ts';
import type { WalSync } from '../../storage/app/wal-sync.ts';
import { BatchQueue, type OnBatch } from '../metering/batch-queue.ts';

/** Told of each grouped batch once it is durable: its size and the seconds from BEGIN to durable. */
export type OnCommitted = OnBatch;

/** How long a batch keeps retrying for the write lock before its calls fail (500). */
const LOCK_WAIT_MS = 10_000;

export class GroupCommit<T, R> {
  /** `work` inside BEGIN IMMEDIATE … COMMIT: the write lock up front, all or nothing. */
  private readonly tx: (items: T[]) => R[];
  private readonly queue: BatchQueue<T, R>;
  /** busy_timeout off / back on around the batch transaction (walSync mode only). */
  private readonly noWait: (() => void) | undefined;
  private readonly wait: (() => void) | undefined;

  /** `work` gets the items of a batch, in order, and returns one result for each. */
  constructor(
    sqlite: Sqlite,
    work: (items: T[]) => R[],
    private readonly walSync?: WalSync,
    onCommitted?: OnCommitted,
  ) {
    if (walSync) {
      const timeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
      // A PRAGMA acts when prepared, not when run: a prepared one cannot be reused.
      this.noWait = () => sqlite.pragma('busy_timeout = 0');
      this.wait = () => sqlite.pragma(`busy_timeout = ${Number.isInteger(timeout) ? timeout : 10_000}`);
    }
    const tx = sqlite.transaction(work);
    this.tx = (items) => tx.immediate(items);
    this.queue = new BatchQueue((items) => this.commit(items), {
      onBatch: onCommitted,
      // Another process holds the write lock: try again on a later turn instead of letting
      // SQLite's busy handler sleep (it would stop every request of this process meanwhile).
      retry: walSync
        ? (err, since) => (err as { code?: string }).code === 'SQLITE_BUSY' && Date.now() - since < LOCK_WAIT_MS
        : undefined,
    });
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
    return this.queue.submit(item);
  }

  /** One batch: committed now (throws SQLITE_BUSY at once with walSync), durable when the promise resolves. */
  private commit(items: T[]): Promise<R[]> {
    const results = this.runBatch(items);
    // Committed, not yet durable with a WalSync: answered once the WAL is on disk.
    return this.walSync ? this.walSync.sync().then(() => results) : Promise.resolve(results);
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
