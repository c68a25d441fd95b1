import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount, reactivateAccount, suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { ApiAccess, type AccessDenied, type AccessIdentity, type AccessResult } from '../../../src/domain/accounts/api-access.ts';
import { AccountsError } from '../../../src/domain/accounts/errors.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { generateToken } from '../../../src/domain/accounts/token-format.ts';
import { activateToken, createToken, deactivateToken, getTokenInfo, listTokens, parseExpiry } from '../../../src/domain/accounts/tokens.ts';
import { currentUsage, dailyUsage } from '../../../src/domain/accounts/usage.ts';
import path from 'node:path';
import { openAppSqlite } from '../../../src/storage/app-db.ts';
import { WalSync } from '../../../src/storage/wal-sync.ts';
import { manualClock, tempAppDb } from './helpers/setup.ts';

function denied(r: AccessResult | AccessIdentity | AccessDenied) {
  assert.equal(r.ok, false, 'expected a denial');
  return r as Extract<AccessResult, { ok: false }>;
}
function granted(r: AccessResult) {
  assert.ok(r.ok, `expected access, got ${JSON.stringify(r)}`);
  return r;
}

/**
 * The server's arrangement: ApiAccess on a connection of its own (optionally with the WAL flush),
 * while the web app, the CLI and other processes change rows through another one (`app`).
 */
async function apiSetup(opts: { walSync?: boolean } = {}) {
  const { app, dir, cleanup } = await tempAppDb();
  const apiConn = openAppSqlite(dir, opts.walSync ? 'api' : 'main');
  const walSync = opts.walSync ? new WalSync(path.join(dir, 'app.db-wal')) : undefined;
  const access = new ApiAccess(apiConn, { walSync });
  const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Ouro' });
  const t = createToken(app.sqlite, { accountId: acc.id, name: 'prod', createdBy: 'cli' });
  return {
    app,
    access,
    acc,
    t,
    async cleanup() {
      walSync?.close();
      apiConn.close();
      await cleanup();
    },
  };
}

test('missing and malformed tokens are refused without a database read', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const access = new ApiAccess(app.sqlite);
    // Any statement run after this would fail: proves the early returns never touch SQLite.
    app.sqlite.pragma('query_only = ON');
    const prep = app.sqlite.prepare;
    let prepared = 0;
    app.sqlite.prepare = ((...a: Parameters<typeof prep>) => (prepared++, prep.apply(app.sqlite, a))) as typeof prep;
    for (const t of [undefined, null, '', '   ']) {
      const d = denied(access.authenticate(t));
      assert.deepEqual([d.error, d.status], ['missing_token', 401]);
      assert.ok(d.message.length > 10);
    }
    const good = generateToken();
    for (const t of ['abc', good.slice(0, -1) + (good.endsWith('a') ? 'b' : 'a'), 'cnpj_' + 'A'.repeat(39)]) {
      assert.deepEqual([denied(access.authenticate(t)).error, denied(access.authenticate(t)).status], ['invalid_token', 401]);
    }
    assert.equal(prepared, 0);
    app.sqlite.prepare = prep;
    app.sqlite.pragma('query_only = OFF');
    // Well formed but unknown: a lookup, then invalid_token.
    assert.equal(denied(access.authenticate(good)).error, 'invalid_token');
  } finally {
    await cleanup();
  }
});

test('token states with an injected clock: active, deactivated, expired, invalidated', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-04-01T12:00:00-03:00');
    const access = new ApiAccess(app.sqlite, { now: clock });
    const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Ouro' }, clock);
    const perm = createToken(app.sqlite, { accountId: acc.id, name: 'prod', createdBy: 'cli' }, clock);
    const dated = createToken(app.sqlite, { accountId: acc.id, name: 'ci', expires: '2026-04-10', createdBy: 7 }, clock);
    const days = createToken(app.sqlite, { accountId: acc.id, name: 'dev', expires: '30d', createdBy: 'cli' }, clock);
    assert.equal(dated.info.expiresAt, '2026-04-10');
    assert.equal(days.info.expiresAt, '2026-05-01');
    assert.equal(dated.info.createdBy, '7');
    assert.equal(perm.info.expiresAt, null);

    const g = granted(access.authenticate(perm.token));
    assert.deepEqual([g.accountId, g.accountName, g.tokenId], [acc.id, 'Acme', perm.id]);
    assert.deepEqual(g.quota, { limit: 50000, remaining: 50000, reset: Date.parse('2026-05-01T03:00:00Z') / 1000 });

    // Deactivate / activate toggles only that token.
    deactivateToken(app.sqlite, perm.id, {}, clock);
    assert.deepEqual(
      [denied(access.authenticate(perm.token)).error, denied(access.authenticate(perm.token)).status],
      ['token_deactivated', 401],
    );
    granted(access.authenticate(dated.token));
    assert.equal(activateToken(app.sqlite, perm.id, {}, clock).state, 'active');
    granted(access.authenticate(perm.token));

    // Valid through the last day (São Paulo), expired from the next midnight there.
    clock.set('2026-04-10T23:59:59-03:00');
    granted(access.authenticate(dated.token));
    clock.set('2026-04-11T00:00:00-03:00');
    const e = denied(access.authenticate(dated.token));
    assert.deepEqual([e.error, e.status], ['token_expired', 401]);
    assert.match(e.message, /10\/04\/2026/);
    assert.equal(getTokenInfo(app.sqlite, dated.id, clock)?.state, 'expired');
    granted(access.authenticate(perm.token));

    // Web scope: a token of another account is "not found".
    assert.throws(() => deactivateToken(app.sqlite, perm.id, { accountId: acc.id + 1 }, clock), (x: AccountsError) => x.code === 'not_found');
    assert.deepEqual(
      listTokens(app.sqlite, acc.id, clock).map((t) => [t.name, t.state]),
      [['prod', 'active'], ['ci', 'expired'], ['dev', 'active']],
    );
  } finally {
    await cleanup();
  }
});

test('expiry parsing: 30d, dates, never; bad and past values refused', () => {
  const now = () => new Date('2026-03-31T23:30:00-03:00');
  assert.equal(parseExpiry('30d', now), '2026-04-30');
  assert.equal(parseExpiry('1d', now), '2026-04-01');
  assert.equal(parseExpiry('2026-03-31', now), '2026-03-31'); // today is allowed: valid until midnight
  for (const p of ['never', 'NEVER', 'permanent', '', null, undefined]) assert.equal(parseExpiry(p, now), null);
  for (const p of ['0d', '3651d', '2026-03-30', '2026-02-30', '31/12/2026', 'tomorrow', '30', '-1d']) {
    assert.throws(() => parseExpiry(p, now), AccountsError, String(p));
  }
});

test('suspension invalidates every token for good; reactivation needs new tokens', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-04-01T12:00:00-03:00');
    const access = new ApiAccess(app.sqlite, { now: clock });
    const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Ouro' }, clock);
    const other = createAccount(app.sqlite, { name: 'Other', plan: 'Ouro' }, clock);
    const t1 = createToken(app.sqlite, { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);
    const t2 = createToken(app.sqlite, { accountId: acc.id, name: 'b', createdBy: 'cli' }, clock);
    const t3 = createToken(app.sqlite, { accountId: other.id, name: 'c', createdBy: 'cli' }, clock);
    deactivateToken(app.sqlite, t2.id, {}, clock);

    const { invalidatedTokens } = suspendAccount(app.sqlite, 'acme', clock);
    assert.equal(invalidatedTokens, 2);
    for (const t of [t1, t2]) {
      const d = denied(access.authenticate(t.token));
      assert.deepEqual([d.error, d.status], ['account_suspended', 403]);
    }
    granted(access.authenticate(t3.token)); // other accounts unaffected
    assert.throws(() => createToken(app.sqlite, { accountId: acc.id, name: 'x', createdBy: 'cli' }, clock), (x: AccountsError) => x.code === 'invalid_state');
    assert.throws(() => suspendAccount(app.sqlite, 'Acme', clock), AccountsError);

    reactivateAccount(app.sqlite, 'ACME');
    assert.throws(() => reactivateAccount(app.sqlite, 'Acme'), AccountsError);
    for (const t of [t1, t2]) assert.equal(denied(access.authenticate(t.token)).error, 'account_suspended');
    assert.throws(() => activateToken(app.sqlite, t1.id, {}, clock), (x: AccountsError) => x.code === 'invalid_state');
    assert.deepEqual(listTokens(app.sqlite, acc.id, clock).map((t) => t.state), ['invalidated', 'invalidated']);
    const fresh = createToken(app.sqlite, { accountId: acc.id, name: 'new', createdBy: 'cli' }, clock);
    granted(access.authenticate(fresh.token));
    // A second suspension invalidates the new token too, keeping the first date on the old ones.
    clock.set('2026-05-01T12:00:00-03:00');
    suspendAccount(app.sqlite, 'Acme', clock);
    assert.equal(getTokenInfo(app.sqlite, t1.id, clock)?.invalidatedAt, new Date('2026-04-01T12:00:00-03:00').toISOString());
    assert.equal(getTokenInfo(app.sqlite, fresh.id, clock)?.state, 'invalidated');
  } finally {
    await cleanup();
  }
});

test('plan without API access is refused with 403, and allowed again when the operator flips it', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const access = new ApiAccess(app.sqlite);
    const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Bronze' });
    const t = createToken(app.sqlite, { accountId: acc.id, name: 'a', createdBy: 'cli' });
    setPlan(app.sqlite, 'Bronze', { apiIncluded: false });
    const d = denied(access.authenticate(t.token));
    assert.deepEqual([d.error, d.status], ['plan_without_api', 403]);
    assert.match(d.message, /Bronze/);
    setPlan(app.sqlite, 'Bronze', { apiIncluded: true });
    granted(access.authenticate(t.token));
  } finally {
    await cleanup();
  }
});

test('quota: consume counts exactly, 429 with Retry-After when used up; authenticate does not count', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-03-31T23:30:00-03:00');
    setPlan(app.sqlite, 'Mini', { monthlyQuota: 3 });
    const access = new ApiAccess(app.sqlite, { now: clock });
    const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Mini' }, clock);
    const t = createToken(app.sqlite, { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);
    const aprilStart = Date.parse('2026-04-01T03:00:00Z') / 1000;

    for (let i = 0; i < 5; i++) granted(access.authenticate(t.token));
    const g = granted(access.authenticate(t.token));
    assert.deepEqual(g.quota, { limit: 3, remaining: 3, reset: aprilStart });
    assert.equal(granted(access.consume(g)).quota.remaining, 2);
    assert.equal(granted(access.consume(g)).quota.remaining, 1);
    assert.equal(granted(access.consume(g)).quota.remaining, 0);
    // consume() with a stale grant still cannot pass the limit.
    const over = denied(access.consume(g));
    assert.deepEqual([over.error, over.status, over.retryAfter], ['quota_exceeded', 429, 1800]);
    assert.deepEqual(over.quota, { limit: 3, remaining: 0, reset: aprilStart });
    assert.match(over.message, /01\/04\/2026/);
    const early = denied(access.authenticate(t.token));
    assert.deepEqual([early.error, early.retryAfter], ['quota_exceeded', 1800]);
    assert.equal(currentUsage(app.sqlite, acc.id, clock).calls, 3);

    // Month rollover in São Paulo: 23:30 on March 31st was March, 00:30 on April 1st is April.
    clock.set('2026-04-01T00:30:00-03:00');
    const april = granted(access.authenticate(t.token));
    assert.deepEqual(april.quota, { limit: 3, remaining: 3, reset: Date.parse('2026-05-01T03:00:00Z') / 1000 });
    assert.equal(granted(access.consume(april)).quota.remaining, 2);
    const usage = currentUsage(app.sqlite, acc.id, clock);
    assert.deepEqual([usage.month, usage.calls, usage.remaining], ['2026-04', 1, 2]);
    assert.deepEqual(
      dailyUsage(app.sqlite, acc.id, { now: clock }).map((d) => [d.day, d.tokenName, d.calls]),
      [['2026-04-01', 'a', 1], ['2026-03-31', 'a', 3]],
    );

    // UTC has already turned the day and month, São Paulo has not.
    clock.set('2026-05-01T02:59:59Z');
    assert.equal(currentUsage(app.sqlite, acc.id, clock).month, '2026-04');
    // Raising the plan quota applies to the next request.
    setPlan(app.sqlite, 'Mini', { monthlyQuota: 10 });
    assert.equal(granted(access.authenticate(t.token)).quota.remaining, 9);
  } finally {
    await cleanup();
  }
});

test('last_used_at is written lazily, at most once a minute per token', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-04-01T12:00:00Z');
    const access = new ApiAccess(app.sqlite, { now: clock });
    const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Ouro' }, clock);
    const t = createToken(app.sqlite, { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);
    assert.equal(getTokenInfo(app.sqlite, t.id)?.lastUsedAt, null);
    const use = () => granted(access.consume(granted(access.authenticate(t.token))));
    use();
    assert.equal(getTokenInfo(app.sqlite, t.id)?.lastUsedAt, '2026-04-01T12:00:00.000Z');
    clock.set('2026-04-01T12:00:59Z');
    use();
    assert.equal(getTokenInfo(app.sqlite, t.id)?.lastUsedAt, '2026-04-01T12:00:00.000Z');
    clock.set('2026-04-01T12:01:00Z');
    use();
    assert.equal(getTokenInfo(app.sqlite, t.id)?.lastUsedAt, '2026-04-01T12:01:00.000Z');
    assert.equal(currentUsage(app.sqlite, acc.id, clock).calls, 3);
  } finally {
    await cleanup();
  }
});

test('consumeGrouped: calls of one event-loop turn share a commit and still stop exactly at the quota', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    setPlan(app.sqlite, 'Tiny', { monthlyQuota: 5 });
    const access = new ApiAccess(app.sqlite);
    const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Tiny' });
    const t = createToken(app.sqlite, { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const g = granted(access.authenticate(t.token));
    const before = app.sqlite.pragma('data_version', { simple: true });
    const results = await Promise.all(Array.from({ length: 12 }, () => access.consumeGrouped(g)));
    assert.deepEqual(results.map((r) => (r.ok ? r.quota.remaining : r.error)), [4, 3, 2, 1, 0, ...Array(7).fill('quota_exceeded')]);
    assert.equal(currentUsage(app.sqlite, acc.id).calls, 5);
    assert.equal(app.sqlite.pragma('data_version', { simple: true }), before); // own commits do not bump it
  } finally {
    await cleanup();
  }
});

test('what the API keeps in memory follows changes made through another connection at once', async () => {
  // The server checks tokens on a connection of its own and keeps the token rows it has read.
  const { app, access, t, cleanup } = await apiSetup();
  try {
    assert.equal(granted(access.authenticate(t.token)).quota.limit, 50000);
    assert.equal(granted(access.authenticate(t.token)).quota.limit, 50000, 'served from memory');

    deactivateToken(app.sqlite, t.info.id);
    assert.equal(denied(access.authenticate(t.token)).error, 'token_deactivated');
    activateToken(app.sqlite, t.info.id);
    granted(access.authenticate(t.token));

    setPlan(app.sqlite, 'Ouro', { monthlyQuota: 7 });
    assert.equal(granted(access.authenticate(t.token)).quota.limit, 7);
    setPlan(app.sqlite, 'Ouro', { apiIncluded: false });
    assert.equal(denied(access.authenticate(t.token)).error, 'plan_without_api');
    setPlan(app.sqlite, 'Ouro', { apiIncluded: true });
    granted(access.authenticate(t.token));

    // A counted call and the last-used stamp do not empty the cache, but they are not cached:
    // the quota state is read fresh.
    assert.ok(access.consume(granted(access.authenticate(t.token))).ok);
    assert.equal(granted(access.authenticate(t.token)).quota.remaining, 6);

    suspendAccount(app.sqlite, 'Acme');
    assert.equal(denied(access.authenticate(t.token)).error, 'account_suspended');
    reactivateAccount(app.sqlite, 'Acme');
    assert.equal(denied(access.authenticate(t.token)).error, 'account_suspended', 'suspension invalidated the token for good');

    app.sqlite.prepare('DELETE FROM api_tokens WHERE id = ?').run(t.info.id);
    assert.equal(denied(access.authenticate(t.token)).error, 'invalid_token');
  } finally {
    await cleanup();
  }
});

test('grouped counting waits for another writer without blocking the event loop', async () => {
  const { app, access, acc, t, cleanup } = await apiSetup({ walSync: true });
  try {
    const id = access.identify(t.token);
    assert.ok(id.ok);
    // Another process (here: connection) holds the write lock for 150 ms.
    app.sqlite.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const counted = Promise.all([access.consumeGrouped(id), access.consumeGrouped(id)]);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    await new Promise((r) => setTimeout(r, 150));
    app.sqlite.exec('COMMIT');
    const results = await counted;
    clearInterval(ticker);
    assert.ok(ticks >= 5, `the event loop kept running while waiting for the lock (${ticks} ticks)`);
    assert.ok(performance.now() - started >= 150);
    assert.deepEqual(results.map((r) => (r.ok ? r.quota.remaining : r.error)), [49999, 49998]);
    assert.equal(currentUsage(app.sqlite, acc.id).calls, 2);
  } finally {
    await cleanup();
  }
});

test('a token changed between its check and its count is decided again inside the count', async () => {
  const { app, access, acc, t, cleanup } = await apiSetup();
  try {
    granted(access.authenticate(t.token)); // now in memory

    // The hot path grants from memory; the change lands before the call is counted.
    const id = access.identifyForCount(t.token);
    assert.ok(id.ok);
    deactivateToken(app.sqlite, t.info.id);
    const r = await access.consumeGrouped(id);
    assert.equal(denied(r).error, 'token_deactivated');
    assert.equal(currentUsage(app.sqlite, acc.id).calls, 0, 'a refused call is not counted');
    // Denials are never served from memory: reactivated elsewhere, the next check passes.
    assert.equal(denied(access.identifyForCount(t.token)).error, 'token_deactivated');
    activateToken(app.sqlite, t.info.id);
    const again = access.identifyForCount(t.token);
    assert.ok(again.ok);

    // A plan change between check and count: the new limit applies to this very call.
    setPlan(app.sqlite, 'Ouro', { monthlyQuota: 0 });
    assert.equal(denied(await access.consumeGrouped(again)).error, 'quota_exceeded');
    setPlan(app.sqlite, 'Ouro', { monthlyQuota: 3 });
    const next = access.identifyForCount(t.token);
    assert.ok(next.ok);
    const ok = granted(await access.consumeGrouped(next));
    assert.deepEqual([ok.quota.limit, ok.quota.remaining], [3, 2]);
    assert.equal(currentUsage(app.sqlite, acc.id).calls, 1);
  } finally {
    await cleanup();
  }
});
