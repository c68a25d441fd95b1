// The quota state an answer carries, from the account's calls this month: the same on both
// backends (the counting itself is the backend's, under its lock: storage/app/metering-*.ts).
import { quotaExceeded, type AccessIdentity, type AccessResult, type QuotaState } from './result.ts';
import { nextMonthStartEpoch } from './time.ts';

/** last_used_at is written at most this often per token (docs/quotas-and-tokens.md). */
export const TOUCH_INTERVAL_MS = 60_000;

/**
 * The quota state of an answer that counts nothing, given the account's calls this month, or
 * quota_exceeded when nothing is left.
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

/**
 * The answer for `needed` calls a batch counted (`calls`: the account's count after them) or
 * refused (undefined), `used` being the account's count as the batch left it. A refused batch of
 * `needed` > 1 calls says how many remain: it may have been refused with some left (a single call,
 * only with none).
 */
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
