// Durability for group commit without blocking the event loop. A connection with
// synchronous=NORMAL commits into the WAL file without fsync; this flushes that file with
// fdatasync on libuv's thread pool, and callers wait for a flush that STARTED after their
// commit. Once it completes, their transactions are on disk exactly as with synchronous=FULL
// (which is a WAL fsync per commit): checkpoints still sync the WAL before copying it into the
// database and sync the database before the WAL is reused.
import fs from 'node:fs';

export class WalSync {
  private fd: number | null = null;
  private inFlight: Promise<void> | null = null;
  /** Callers that committed while a flush was running: they need the next one. */
  private next: Promise<void> | null = null;

  constructor(private readonly walPath: string) {}

  /** Resolves once everything committed before this call is on disk. */
  sync(): Promise<void> {
    if (this.inFlight === null) return (this.inFlight = this.flush());
    // A flush that began before this commit may have missed it: queue one more, shared by all.
    this.next ??= this.inFlight.then(
      () => this.startNext(),
      () => this.startNext(),
    );
    return this.next;
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private startNext(): Promise<void> {
    this.next = null;
    return (this.inFlight = this.flush());
  }

  private flush(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // Opened on first use: the WAL exists once something committed. It stays the same file
      // (same inode) for as long as any connection, ours included, keeps app.db open.
      if (this.fd === null) this.fd = fs.openSync(this.walPath, 'r');
      fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve()));
    }).finally(() => {
      if (this.next === null) this.inFlight = null;
    });
  }
}
