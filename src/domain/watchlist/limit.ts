// How many CNPJs an account watches against its plan's limit (plans.watchlist_limit, migration
// 0007; the operator sets it with `plans set --watchlist-limit`).
import type { AppStore } from '../../storage/app/store.ts';

export interface WatchlistUsage {
  /** CNPJs watched now. */
  used: number;
  /** The plan's limit (0: the plan allows none). */
  limit: number;
  plan: string;
}

/** The account's usage; null for an unknown account. Read inside the caller's transaction when it has one. */
export async function watchlistUsage(store: AppStore, accountId: number): Promise<WatchlistUsage | null> {
  const row = await store.db
    .selectFrom('accounts as a')
    .innerJoin('plans as p', 'p.name', 'a.plan')
    .select((eb) => [
      'p.name as plan',
      'p.watchlist_limit as limit',
      eb
        .selectFrom('watchlist as w')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('w.account_id', '=', 'a.id')
        .as('used'),
    ])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  return row ? { used: Number(row.used ?? 0), limit: row.limit, plan: row.plan } : null;
}
