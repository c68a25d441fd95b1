// Adding CNPJs to an account's watchlist, one or many, with the plan's limit enforced atomically:
// the usage is read and the new rows written in ONE write transaction holding the account's
// watchlist lock (SQLite: the file's write lock; PostgreSQL: an advisory lock taken before the
// read), so two concurrent adds (any process, any node) can never pass the limit together, and
// a list that does not fit adds nothing. A CNPJ need only be valid (the caller normalises it with
// domain/cnpj.ts): it need not exist in the active snapshot (docs/watchlists.md).
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { watchlistUsage } from './limit.ts';

export interface Watched {
  cnpj: string;
  /** ISO 8601 UTC, when it was first added. */
  added_at: string;
}

export type AddResult =
  | {
      ok: true;
      /** Per distinct CNPJ given: its row, and whether this call added it (false: it was already watched). */
      rows: Map<string, Watched & { added: boolean }>;
      used: number;
      limit: number;
    }
  | {
      ok: false;
      /** How many of the given CNPJs were not yet watched (what the list needed). */
      needed: number;
      /** How many more the account may still add (0 or more). */
      remaining: number;
      used: number;
      limit: number;
      plan: string;
    };

/** Rows per INSERT: well under either database's bound on parameters. */
const INSERT_CHUNK = 500;

/**
 * Adds the CNPJs (normalised, 14 characters; repeats are taken once) that are not yet watched,
 * all or none: when they would take the account past its plan's limit, nothing is written.
 */
export async function addWatched(
  store: AppStore,
  accountId: number,
  cnpjs: readonly string[],
  now: Date,
): Promise<AddResult> {
  const distinct = [...new Set(cnpjs)];
  return writeTransaction(store, async (tx): Promise<AddResult> => {
    // Before the count: another node's add for this account waits here until this one commits.
    await lockFor(tx, 'watchlist', accountId);
    const usage = await watchlistUsage(tx, accountId);
    if (usage === null) throw new Error(`account ${accountId} does not exist`);
    const watched = new Map<string, string>();
    for (let i = 0; i < distinct.length; i += INSERT_CHUNK) {
      const rows = await tx.db
        .selectFrom('watchlist')
        .select(['cnpj', 'added_at'])
        .where('account_id', '=', accountId)
        .where('cnpj', 'in', distinct.slice(i, i + INSERT_CHUNK))
        .execute();
      for (const r of rows) watched.set(r.cnpj, r.added_at);
    }
    const rows = new Map<string, Watched & { added: boolean }>();
    const fresh: string[] = [];
    for (const cnpj of distinct) {
      const at = watched.get(cnpj);
      if (at === undefined) fresh.push(cnpj);
      else rows.set(cnpj, { cnpj, added_at: at, added: false });
    }
    const remaining = Math.max(0, usage.limit - usage.used);
    if (fresh.length > remaining)
      return { ok: false, needed: fresh.length, remaining, used: usage.used, limit: usage.limit, plan: usage.plan };
    const at = now.toISOString();
    for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
      const chunk = fresh.slice(i, i + INSERT_CHUNK);
      await tx.db
        .insertInto('watchlist')
        .values(chunk.map((cnpj) => ({ account_id: accountId, cnpj, added_at: at })))
        .execute();
    }
    for (const cnpj of fresh) rows.set(cnpj, { cnpj, added_at: at, added: true });
    return { ok: true, rows, used: usage.used + fresh.length, limit: usage.limit };
  });
}
