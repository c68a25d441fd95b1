// Durability for group commit without blocking the event loop. A connection with
// synchronous=NORMAL commits into the WAL file without fsync; this flushes that file with
// fdatasync on libuv's thread pool, and a caller waits for a flush started after its commit.
// Once it completes, the caller's transactions are on disk exactly as with synchronous=FULL
// (which is a WAL fsync per commit): checkpoints still sync the WAL before copying it into the
// database and sync the database before the WAL is reused.
//
// Flushes are not serialised: each group commit starts its own at once, so a batch never waits
// for an earlier batch's flush to finish before its own can begin.
import fs from 'node:fs';

export class WalSync {
  private fd: number | null = null;

  constructor(private readonly walPath: string) {}

  /** Resolves once everything committed before this call is on disk. */
  sync(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // Opened on first use: the WAL exists once something committed. It stays the same file
      // (same inode) for as long as any connection, ours included, keeps app.db open.
      if (this.fd === null) this.fd = fs.openSync(this.walPath, 'r');
      fs.fdatasync(this.fd, (err) => (err ? reject(err) : resolve()));
    });
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}
