// Adding CNPJs to an account's watchlist, one or many, with the plan's limit enforced atomically:
// the usage is read and the new rows written in ONE immediate transaction (SQLite's write lock),
// so two concurrent adds (any process on the same app.db) can never pass the limit together, and
// a list that does not fit adds nothing. A CNPJ need only be valid (the caller normalises it with
// domain/cnpj.ts): it need not exist in the active snapshot (docs/watchlists.md).
import type { Sqlite } from '../../storage/sqlite.ts';
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

/**
 * Adds the CNPJs (normalised, 14 characters; repeats are taken once) that are not yet watched,
 * all or none: when they would take the account past its plan's limit, nothing is written.
 */
export function addWatched(app: Sqlite, accountId: number, cnpjs: readonly string[], now: Date): AddResult {
  const distinct = [...new Set(cnpjs)];
  const existing = app.prepare('SELECT added_at FROM watchlist WHERE account_id = ? AND cnpj = ?').pluck();
  const insert = app.prepare('INSERT INTO watchlist (account_id, cnpj, added_at) VALUES (?, ?, ?)');
  return app
    .transaction((): AddResult => {
      const usage = watchlistUsage(app, accountId);
      if (usage === null) throw new Error(`account ${accountId} does not exist`);
      const rows = new Map<string, Watched & { added: boolean }>();
      const fresh: string[] = [];
      for (const cnpj of distinct) {
        const at = existing.get(accountId, cnpj) as string | undefined;
        if (at === undefined) fresh.push(cnpj);
        else rows.set(cnpj, { cnpj, added_at: at, added: false });
      }
      const remaining = Math.max(0, usage.limit - usage.used);
      if (fresh.length > remaining)
        return { ok: false, needed: fresh.length, remaining, used: usage.used, limit: usage.limit, plan: usage.plan };
      const at = now.toISOString();
      for (const cnpj of fresh) {
        insert.run(accountId, cnpj, at);
        rows.set(cnpj, { cnpj, added_at: at, added: true });
      }
      return { ok: true, rows, used: usage.used + fresh.length, limit: usage.limit };
    })
    .immediate();
}
