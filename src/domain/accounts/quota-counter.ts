// The monthly quota, exact across processes: each call is one atomic check-and-increment of the
// account's monthly row under SQLite's write lock, plus the token's daily row (the account's
// web row for the Consulta page's calls) and its lazy last_used_at stamp. The counting methods run inside the caller's transaction (ApiAccess's
// counting transaction, grouped by GroupCommit), so a crash keeps all of a batch or none.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../storage/sqlite.ts';
import { quotaExceeded, type AccessIdentity, type AccessResult, type QuotaState } from './access-result.ts';
import { nextMonthStartEpoch, spMonth, type Clock } from './time.ts';

/** last_used_at is written at most this often per token (docs/quotas-and-tokens.md). */
const TOUCH_INTERVAL_MS = 60_000;

export class QuotaCounter {
  private readonly monthlyCalls: Statement<[number, string], number>;
  private readonly bumpMonthly: Statement<[number, string, number], { calls: number }>;
  private readonly bumpMonthlyBy: Statement<[number, string, number, number], { calls: number }>;
  private readonly bumpDaily: Statement<[number, string, number]>;
  private readonly bumpDailyWeb: Statement<[number, string, number]>;
  private readonly touch: Statement<[string, number, string]>;
  private readonly lastTouch = new Map<number, number>();

  constructor(
    sqlite: Sqlite,
    private readonly now: Clock,
  ) {
    this.monthlyCalls = sqlite.prepare<[number, string], number>('SELECT calls FROM usage_monthly WHERE account_id = ? AND month = ?').pluck();
    // Check and increment in ONE statement: under SQLite's write lock no two processes can both
    // see calls = limit - 1 and both pass. No row returned = the quota is used up.
    this.bumpMonthly = sqlite.prepare(
      `INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, 1)
       ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + 1 WHERE calls < ?
       RETURNING calls`,
    );
    // The same for several calls at once (a batch): all of them fit, or none is counted. The
    // single call keeps its own statement above, so the lookup's hot path binds nothing more.
    this.bumpMonthlyBy = sqlite.prepare(
      `INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, ?)
       ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + excluded.calls WHERE calls + excluded.calls <= ?
       RETURNING calls`,
    );
    this.bumpDaily = sqlite.prepare(
      `INSERT INTO usage_daily (token_id, day, calls) VALUES (?, ?, ?)
       ON CONFLICT (token_id, day) DO UPDATE SET calls = calls + excluded.calls`,
    );
    // The Consulta page's calls have no token: their day is the account's (migration 0006).
    this.bumpDailyWeb = sqlite.prepare(
      `INSERT INTO usage_daily_web (account_id, day, calls) VALUES (?, ?, ?)
       ON CONFLICT (account_id, day) DO UPDATE SET calls = calls + excluded.calls`,
    );
    // The WHERE keeps several server processes from each rewriting the same minute.
    this.touch = sqlite.prepare(
      'UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    );
  }

  /**
   * The usage so far this month, without counting a call: the quota state for an answer that
   * counts nothing (400, 503), or quota_exceeded when nothing is left.
   */
  state(id: AccessIdentity): AccessResult {
    const at = this.now();
    const calls = this.monthlyCalls.get(id.accountId, spMonth(at)) ?? 0;
    const quota: QuotaState = { limit: id.limit, remaining: Math.max(0, id.limit - calls), reset: nextMonthStartEpoch(at) };
    if (quota.remaining === 0) return quotaExceeded(quota, at);
    return { ...id, quota };
  }

  /** Counts one call against the account's month: the new count, or undefined when used up. */
  bump(id: AccessIdentity, month: string): number | undefined {
    // limit 0: the INSERT branch would otherwise count a first call.
    return id.limit > 0 ? this.bumpMonthly.get(id.accountId, month, id.limit)?.calls : undefined;
  }

  /**
   * Counts `n` calls at once, all or nothing: the new count, or undefined when fewer than `n`
   * remain (then nothing is counted).
   */
  bumpBy(id: AccessIdentity, month: string, n: number): number | undefined {
    if (n === 1) return this.bump(id, month);
    // n over the limit: the INSERT branch (no row yet this month) would otherwise count them.
    return n <= id.limit ? this.bumpMonthlyBy.get(id.accountId, month, n, id.limit)?.calls : undefined;
  }

  /**
   * The daily rows and last-used stamps of the calls bump() counted: calls per token id, and the
   * web app's Consulta calls (no token) per account id.
   */
  record(tokenCalls: Map<number, number>, day: string, at: Date, webCalls?: Map<number, number>): void {
    for (const [accountId, n] of webCalls ?? []) this.bumpDailyWeb.run(accountId, day, n);
    const ms = at.getTime();
    for (const [tokenId, n] of tokenCalls) {
      this.bumpDaily.run(tokenId, day, n);
      if (ms - (this.lastTouch.get(tokenId) ?? 0) >= TOUCH_INTERVAL_MS) {
        this.touch.run(at.toISOString(), tokenId, new Date(ms - TOUCH_INTERVAL_MS).toISOString());
        this.lastTouch.set(tokenId, ms);
      }
    }
  }

  /**
   * The answer for calls bump() counted (`calls`: the new count) or refused (undefined). A refused
   * batch of `needed` > 1 calls says how many remain: it may have been refused with some left.
   */
  answer(id: AccessIdentity, calls: number | undefined, at: Date, needed = 1): AccessResult {
    const reset = nextMonthStartEpoch(at);
    const limit = id.limit;
    if (calls === undefined) {
      const remaining = needed > 1 ? Math.max(0, limit - (this.monthlyCalls.get(id.accountId, spMonth(at)) ?? 0)) : 0;
      return quotaExceeded({ limit, remaining, reset }, at, needed);
    }
    return { ok: true, accountId: id.accountId, accountName: id.accountName, tokenId: id.tokenId, limit, quota: { limit, remaining: Math.max(0, limit - calls), reset } };
  }
}
