// Read side of the usage counters (written by quota-counter.ts): this month against the quota,
// past months, and per-token daily counts (with the Consulta page's, which have no token) for the web app.
import type { Sqlite } from '../../storage/sqlite.ts';
import { NO_TOKEN } from './api-access.ts';
import { AccountsError } from './errors.ts';
import { nextMonthStartEpoch, spDay, spMonth, systemClock, type Clock } from './time.ts';

export interface MonthUsage {
  /** 'YYYY-MM' in America/Sao_Paulo. */
  month: string;
  plan: string;
  apiIncluded: boolean;
  calls: number;
  limit: number;
  remaining: number;
  /** Epoch seconds when the counter starts over (next month, 00:00 São Paulo). */
  reset: number;
}

export function currentUsage(sqlite: Sqlite, accountId: number, now: Clock = systemClock): MonthUsage {
  const at = now();
  const month = spMonth(at);
  const r = sqlite
    .prepare(
      `SELECT a.plan, p.monthly_quota, p.api_included, coalesce(u.calls, 0) AS calls
       FROM accounts a JOIN plans p ON p.name = a.plan
       LEFT JOIN usage_monthly u ON u.account_id = a.id AND u.month = ?
       WHERE a.id = ?`,
    )
    .get(month, accountId) as { plan: string; monthly_quota: number; api_included: number; calls: number } | undefined;
  if (!r) throw new AccountsError('not_found', `Account ${accountId} does not exist.`);
  return {
    month,
    plan: r.plan,
    apiIncluded: r.api_included === 1,
    calls: r.calls,
    limit: r.monthly_quota,
    remaining: Math.max(0, r.monthly_quota - r.calls),
    reset: nextMonthStartEpoch(at),
  };
}

/** Most recent first. */
export function monthlyHistory(sqlite: Sqlite, accountId: number, months = 12): { month: string; calls: number }[] {
  return sqlite
    .prepare('SELECT month, calls FROM usage_monthly WHERE account_id = ? ORDER BY month DESC LIMIT ?')
    .all(accountId, months) as { month: string; calls: number }[];
}

export interface DailyUsageRow {
  day: string;
  /** NO_TOKEN (0) for the web app's Consulta page. */
  tokenId: number;
  /** The token's name, or CONSULTA_WEB for the Consulta page's calls. */
  tokenName: string;
  calls: number;
}

/** What the Consulta page's calls (no token) are listed as, beside the tokens. */
export const CONSULTA_WEB = 'Consulta (web)';

/**
 * Calls per token per São Paulo day, and the Consulta page's calls of each day as one more row
 * (tokenId NO_TOKEN, first of its day); newest first; default: the last 31 days.
 */
export function dailyUsage(
  sqlite: Sqlite,
  accountId: number,
  opts: { from?: string; to?: string; now?: Clock } = {},
): DailyUsageRow[] {
  const now = opts.now ?? systemClock;
  const to = opts.to ?? spDay(now());
  const from = opts.from ?? spDay(new Date(now().getTime() - 30 * 86_400_000));
  return sqlite
    .prepare(
      `SELECT d.day, d.token_id AS tokenId, t.name AS tokenName, d.calls
       FROM usage_daily d JOIN api_tokens t ON t.id = d.token_id
       WHERE t.account_id = ? AND d.day BETWEEN ? AND ?
       UNION ALL
       SELECT w.day, ${NO_TOKEN}, ?, w.calls FROM usage_daily_web w
       WHERE w.account_id = ? AND w.day BETWEEN ? AND ?
       ORDER BY 1 DESC, 2`,
    )
    .all(accountId, from, to, CONSULTA_WEB, accountId, from, to) as DailyUsageRow[];
}
