// Plans live in app.db (seeded by migration 0002) and are edited by the operator.
import type { Sqlite } from '../../storage/sqlite.ts';
import { AccountsError } from './errors.ts';

export interface Plan {
  name: string;
  monthlyQuota: number;
  apiIncluded: boolean;
  /** How many CNPJs an account on this plan may watch (docs/watchlists.md). */
  watchlistLimit: number;
  sortOrder: number;
}

interface PlanRow {
  name: string;
  monthly_quota: number;
  api_included: number;
  watchlist_limit: number;
  sort_order: number;
}

const fromRow = (r: PlanRow): Plan => ({
  name: r.name,
  monthlyQuota: r.monthly_quota,
  apiIncluded: r.api_included === 1,
  watchlistLimit: r.watchlist_limit,
  sortOrder: r.sort_order,
});

export function listPlans(sqlite: Sqlite): Plan[] {
  return (sqlite.prepare('SELECT * FROM plans ORDER BY sort_order, name').all() as PlanRow[]).map(fromRow);
}

/** Case-insensitive; returns the plan with its canonical spelling, or null. */
export function getPlan(sqlite: Sqlite, name: string): Plan | null {
  const r = sqlite.prepare('SELECT * FROM plans WHERE name = ?').get(String(name).trim()) as PlanRow | undefined;
  return r ? fromRow(r) : null;
}

export function requirePlan(sqlite: Sqlite, name: string): Plan {
  const p = getPlan(sqlite, name);
  if (!p) {
    const known = listPlans(sqlite)
      .map((x) => x.name)
      .join(', ');
    throw new AccountsError('not_found', `Plan "${name}" does not exist (plans: ${known}).`);
  }
  return p;
}

export interface PlanChanges {
  monthlyQuota?: number;
  apiIncluded?: boolean;
  watchlistLimit?: number;
}

/**
 * Changes a plan's quota, API flag and/or watchlist limit. An unknown name creates a new plan, which then needs
 * a quota (API included unless said otherwise). Takes effect on the next request.
 */
export function setPlan(sqlite: Sqlite, name: string, changes: PlanChanges): Plan {
  const q = changes.monthlyQuota;
  if (q !== undefined && !(Number.isSafeInteger(q) && q >= 0)) {
    throw new AccountsError('invalid_input', 'The monthly quota must be an integer of 0 or more.');
  }
  const w = changes.watchlistLimit;
  if (w !== undefined && !(Number.isSafeInteger(w) && w >= 0)) {
    throw new AccountsError('invalid_input', 'The watchlist limit must be an integer of 0 or more.');
  }
  const trimmed = String(name ?? '').trim();
  return sqlite
    .transaction((): Plan => {
      const existing = getPlan(sqlite, trimmed);
      if (!existing) {
        if (!trimmed || trimmed.length > 60)
          throw new AccountsError('invalid_input', 'The plan name must have 1 to 60 characters.');
        if (q === undefined)
          throw new AccountsError(
            'invalid_input',
            `Plan "${trimmed}" does not exist; to create it, give its monthly quota.`,
          );
        const { next } = sqlite.prepare('SELECT coalesce(max(sort_order), 0) + 10 AS next FROM plans').get() as {
          next: number;
        };
        sqlite
          .prepare('INSERT INTO plans (name, monthly_quota, api_included, sort_order) VALUES (?, ?, ?, ?)')
          .run(trimmed, q, changes.apiIncluded === false ? 0 : 1, next);
        if (w !== undefined) sqlite.prepare('UPDATE plans SET watchlist_limit = ? WHERE name = ?').run(w, trimmed);
      } else {
        if (q !== undefined) sqlite.prepare('UPDATE plans SET monthly_quota = ? WHERE name = ?').run(q, existing.name);
        if (changes.apiIncluded !== undefined) {
          sqlite
            .prepare('UPDATE plans SET api_included = ? WHERE name = ?')
            .run(changes.apiIncluded ? 1 : 0, existing.name);
        }
        // Lowering it below what accounts already watch removes nothing: they can only remove until under it.
        if (w !== undefined)
          sqlite.prepare('UPDATE plans SET watchlist_limit = ? WHERE name = ?').run(w, existing.name);
      }
      return getPlan(sqlite, trimmed)!;
    })
    .immediate();
}
