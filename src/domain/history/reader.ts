// The server's one read-only connection to history.db, shared by the change feed, the company
// history, the watchlist pages and the webhook queue. history.db appears with the first recorded
// month, possibly while the server runs: the connection is opened on first need, not at start.
import { historyMonths, openHistoryReader } from '../../storage/history/db.ts';
import type { HistoryMonth } from '../../storage/history/schema.ts';
import type { Sqlite } from '../../storage/sqlite.ts';

export class HistoryReader {
  private db: Sqlite | null = null;

  constructor(private readonly dataDir: string) {}

  /** The connection, or null while no month has been recorded. */
  connection(): Sqlite | null {
    if (this.db === null) this.db = openHistoryReader(this.dataDir);
    return this.db;
  }

  /** The recorded months, newest first (empty before the first). */
  months(): HistoryMonth[] {
    const db = this.connection();
    return db === null ? [] : historyMonths(db);
  }

  /** The newest recorded month, or null. */
  latestMonth(): string | null {
    return this.months()[0]?.month ?? null;
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
