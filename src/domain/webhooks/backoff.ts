// When a failed delivery is tried again: exponential backoff from 30 s, capped at one hour, with
// ±20 % jitter (receivers that failed together do not get retried together), until its retry
// window (24 h) closes; a failure after that fails the delivery.

export const RETRY_WINDOW_MS = 24 * 3600_000;
const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 3600_000;

/** The delay before the next attempt after `attempts` failed ones (1, 2, ...), random in [0, 1). */
export function retryDelayMs(attempts: number, random: number = Math.random()): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
  return Math.round(base * (0.8 + 0.4 * random));
}

/**
 * After a failed attempt at `now`: the next attempt's time, or null when the window is closed. The
 * last retry is pulled in to the window's end rather than skipped.
 */
export function nextAttemptAfterFailure(attempts: number, now: Date, retryUntil: Date, random?: number): Date | null {
  if (now.getTime() >= retryUntil.getTime()) return null;
  return new Date(Math.min(now.getTime() + retryDelayMs(attempts, random), retryUntil.getTime()));
}
