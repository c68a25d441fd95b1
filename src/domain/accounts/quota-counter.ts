// The monthly quota, exact across processes: the calls of a counting transaction are checked and
// counted against the account's monthly row under SQLite's write lock (MonthTally), plus the
// token's daily row (the account's web row for the Consulta page's calls) and its lazy
// last_used_at stamp. The counting methods run inside the caller's transaction (ApiAccess's
// counting transaction, grouped by GroupCommit), so a crash keeps all of a batch or none.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../storage/sqlite.ts';
import { quotaExceeded, type AccessIdentity, type AccessResult, type QuotaState } from '../metering/result.ts';
import { nextMonthStartEpoch, spMonth, type Clock } from '../metering/time.ts';

/** last_used_at is written at most this often per token (docs/quotas-and-tokens.md). */
export const TOUCH_INTERVAL_MS = 60_000;

export class QuotaCounter {
  private readonly monthlyCalls: Statement<[number, string], number>;
  private readonly addMonthly: Statement<[number, string, number]>;
  private readonly bumpDaily: Statement<[number, string, number]>;
  private readonly bumpDailyWeb: Statement<[number, string, number]>;
  private readonly touch: Statement<[string, number, string]>;
  private readonly lastTouch = new Map<number, number>();

  constructor(
    sqlite: Sqlite,
    private readonly now: Clock,
  ) {
    this.monthlyCalls = sqlite
      .prepare<[number, string], number>('SELECT calls FROM usage_monthly WHERE account_id = ? AND month = ?')
      .pluck();
    // Additive: written once per account at the end of a counting transaction (MonthTally),
    // which read the count under the same write lock.
    this.addMonthly = sqlite.prepare(
      `INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, ?)
       ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + excluded.calls`,
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
    return usageState(id, this.monthlyCalls.get(id.accountId, spMonth(at)) ?? 0, at);
  }

  /**
   * The monthly counters of one counting transaction (see MonthTally). Exact only inside a
   * transaction that holds the write lock from its start (BEGIN IMMEDIATE, as GroupCommit runs).
   */
  tally(month: string): MonthTally {
    return new MonthTally(
      month,
      (accountId) => this.monthlyCalls.get(accountId, month) ?? 0,
      (accountId, n) => this.addMonthly.run(accountId, month, n),
    );
  }

  /**
   * The daily rows and last-used stamps of the calls a tally counted: calls per token id, and the
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
   * The answer for `needed` calls a tally counted (`calls`: the new count) or refused (undefined),
   * `used` being the account's count as the tally has it. A refused batch of `needed` > 1 calls
   * says how many remain: it may have been refused with some left (a single call, only with none).
   */
  answer(id: AccessIdentity, calls: number | undefined, at: Date, needed: number, used: number): AccessResult {
    return countAnswer(id, calls, at, needed, used);
  }
}

/**
 * The quota state of an answer that counts nothing, given the account's calls this month, or
 * quota_exceeded when nothing is left (QuotaCounter.state, and the PostgreSQL access).
 */
export function usageState(id: AccessIdentity, calls: number, at: Date): AccessResult {
  const quota: QuotaState = {
    limit: id.limit,
    remaining: Math.max(0, id.limit - calls),
    reset: nextMonthStartEpoch(at),
  };
  if (quota.remaining === 0) return quotaExceeded(quota, at);
  return { ...id, quota };
}

/** QuotaCounter.answer(), for either backend. */
export function countAnswer(
  id: AccessIdentity,
  calls: number | undefined,
  at: Date,
  needed: number,
  used: number,
): AccessResult {
  const reset = nextMonthStartEpoch(at);
  const limit = id.limit;
  if (calls === undefined) return quotaExceeded({ limit, remaining: Math.max(0, limit - used), reset }, at, needed);
  return {
    ok: true,
    accountId: id.accountId,
    accountName: id.accountName,
    tokenId: id.tokenId,
    limit,
    quota: { limit, remaining: Math.max(0, limit - calls), reset },
  };
}

/**
 * The monthly counters as one counting transaction sees them: each account's count read once,
 * the calls of the transaction checked and counted in memory, one additive write per account at
 * the end. Under the transaction's write lock nobody else can count meanwhile, so this is as
 * exact as one check-and-increment statement per call, for a read and a write per account
 * instead of an UPSERT per call. Measured in process: a counting transaction of 8 calls costs
 * 3.0 µs per call instead of 5.2, of 16 calls 1.7 instead of 3.8.
 */
export class MonthTally {
  /** Calls per account: as read, then as counted so far. */
  private readonly calls = new Map<number, number>();
  /** Calls counted here per account, written by write(). */
  private readonly added = new Map<number, number>();

  constructor(
    readonly month: string,
    private readonly read: (accountId: number) => number,
    private readonly add: (accountId: number, n: number) => void,
  ) {}

  /** The account's calls this month, those counted here included. */
  used(accountId: number): number {
    let c = this.calls.get(accountId);
    if (c === undefined) this.calls.set(accountId, (c = this.read(accountId)));
    return c;
  }

  /** Counts `n` calls if they all fit under the limit: the new count, else undefined (nothing counted). */
  take(id: AccessIdentity, n: number): number | undefined {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`calls must be a positive integer, got ${n}`);
    const c = this.used(id.accountId) + n;
    // A limit of 0 (or fewer than n left) counts nothing.
    if (c > id.limit) return undefined;
    this.calls.set(id.accountId, c);
    this.added.set(id.accountId, (this.added.get(id.accountId) ?? 0) + n);
    return c;
  }

  write(): void {
    for (const [accountId, n] of this.added) this.add(accountId, n);
    this.added.clear();
  }
}
