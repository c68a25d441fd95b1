// How many CNPJs an account watches against its plan's limit (plans.watchlist_limit, migration
// 0007; the operator sets it with `plans set --watchlist-limit`).
import type { Sqlite } from '../../storage/sqlite.ts';

export interface WatchlistUsage {
  /** CNPJs watched now. */
  used: number;
  /** The plan's limit (0: the plan allows none). */
  limit: number;
  plan: string;
}

/** The account's usage; null for an unknown account. Read inside the caller's transaction when it has one. */
export function watchlistUsage(app: Sqlite, accountId: number): WatchlistUsage | null {
  const row = app
    .prepare(
      `SELECT p.name AS plan, p.watchlist_limit AS "limit",
              (SELECT count(*) FROM watchlist w WHERE w.account_id = a.id) AS used
       FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.id = ?`,
    )
    .get(accountId) as { plan: string; limit: number; used: number } | undefined;
  return row ?? null;
}
