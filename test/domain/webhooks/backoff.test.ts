// The retry schedule: doubling from 30 s, capped at an hour, ±20 % jitter, and no attempt after the
// 24 h window (the last one pulled in to its end).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextAttemptAfterFailure, retryDelayMs, RETRY_WINDOW_MS } from '../../../src/domain/webhooks/backoff.ts';

test('retryDelayMs: 30 s doubling to 1 h, jitter within ±20 %', () => {
  const mid = [1, 2, 3, 4, 5, 6, 7, 8, 20, 100].map((n) => retryDelayMs(n, 0.5) / 1000);
  assert.deepEqual(mid, [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  assert.equal(retryDelayMs(1, 0), 24_000);
  assert.equal(retryDelayMs(1, 0.999999), 36_000);
  assert.equal(retryDelayMs(10, 0), 2_880_000);
});

test('nextAttemptAfterFailure: stops at the end of the window; about 30 attempts in 24 h', () => {
  const start = new Date('2026-04-01T00:00:00Z');
  const until = new Date(start.getTime() + RETRY_WINDOW_MS);
  let at = start;
  let attempts = 0;
  for (;;) {
    attempts++;
    const next = nextAttemptAfterFailure(attempts, at, until, 0.5);
    if (next === null) break;
    assert.ok(next > at && next <= until);
    at = next;
  }
  assert.equal(at.getTime(), until.getTime(), 'the last attempt at the end of the window');
  assert.ok(attempts >= 25 && attempts <= 35, `${attempts} attempts`);
});
