// Read side of the usage counters (written by the metering: storage/app/metering-*.ts): this month
// against the quota, past months, and per-token daily counts (with the Consulta page's, which have
// no token) for the web app.
import { sql } from 'kysely';
import type { AppStore } from '../../storage/app/store.ts';
import { NO_TOKEN } from '../metering/access.ts';
import { AccountsError } from './errors.ts';
import { nextMonthStartEpoch, spDay, spMonth, systemClock, type Clock } from '../metering/time.ts';

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

export async function currentUsage(store: AppStore, accountId: number, now: Clock = systemClock): Promise<MonthUsage> {
  const at = now();
  const month = spMonth(at);
  const r = await store.db
    .selectFrom('accounts as a')
    .innerJoin('plans as p', 'p.name', 'a.plan')
    .leftJoin('usage_monthly as u', (j) => j.onRef('u.account_id', '=', 'a.id').on('u.month', '=', month))
    .select(['a.plan', 'p.monthly_quota', 'p.api_included', sql<number>`coalesce(u.calls, 0)`.as('calls')])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
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
export async function monthlyHistory(
  store: AppStore,
  accountId: number,
  months = 12,
): Promise<{ month: string; calls: number }[]> {
  return store.db
    .selectFrom('usage_monthly')
    .select(['month', 'calls'])
    .where('account_id', '=', accountId)
    .orderBy('month', 'desc')
    .limit(months)
    .execute();
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
export async function dailyUsage(
  store: AppStore,
  accountId: number,
  opts: { from?: string; to?: string; now?: Clock } = {},
): Promise<DailyUsageRow[]> {
  const now = opts.now ?? systemClock;
  const to = opts.to ?? spDay(now());
  const from = opts.from ?? spDay(new Date(now().getTime() - 30 * 86_400_000));
  // Quoted aliases: PostgreSQL folds unquoted ones to lower case. The name's CAST gives the
  // parameter a type PostgreSQL's UNION can resolve.
  const { rows } = await sql<DailyUsageRow>`
    SELECT d.day, d.token_id AS "tokenId", t.name AS "tokenName", d.calls
    FROM usage_daily d JOIN api_tokens t ON t.id = d.token_id
    WHERE t.account_id = ${accountId} AND d.day BETWEEN ${from} AND ${to}
    UNION ALL
    SELECT w.day, ${sql.lit(NO_TOKEN)}, CAST(${CONSULTA_WEB} AS TEXT), w.calls FROM usage_daily_web w
    WHERE w.account_id = ${accountId} AND w.day BETWEEN ${from} AND ${to}
    ORDER BY 1 DESC, 2`.execute(store.db);
  return rows;
}
