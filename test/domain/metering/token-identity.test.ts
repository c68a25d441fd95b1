// Token identity: which tokens may call the API, decided in memory and again inside the count
// when anything changed (src/domain/metering/meter.ts over app.db's src/storage/app/metering-sqlite.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount, reactivateAccount, suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { generateToken } from '../../../src/domain/metering/token-format.ts';
import { Meter } from '../../../src/domain/metering/meter.ts';
import type { MeteringStore } from '../../../src/storage/app/metering.ts';
import { SqliteMetering } from '../../../src/storage/app/metering-sqlite.ts';
import {
  activateToken,
  createToken,
  deactivateToken,
  getTokenInfo,
  listTokens,
} from '../../../src/domain/accounts/tokens.ts';
import { AccountsError } from '../../../src/domain/accounts/errors.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { apiSetup, denied, granted, sqliteMeter } from './helpers/api-setup.ts';
import { manualClock, tempAppDb } from '../accounts/helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

test('missing and malformed tokens are refused without a database read', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const access = sqliteMeter(app.sqlite);
    // Any statement run after this would fail: proves the early returns never touch SQLite.
    app.sqlite.pragma('query_only = ON');
    const prep = app.sqlite.prepare;
    let prepared = 0;
    app.sqlite.prepare = ((...a: Parameters<typeof prep>) => (prepared++, prep.apply(app.sqlite, a))) as typeof prep;
    for (const t of [undefined, null, '', '   ']) {
      const d = denied(await access.authenticate(t));
      assert.deepEqual([d.error, d.status], ['missing_token', 401]);
      assert.ok(d.message.length > 10);
    }
    const good = generateToken();
    for (const t of ['abc', good.slice(0, -1) + (good.endsWith('a') ? 'b' : 'a'), 'cnpj_' + 'A'.repeat(39)]) {
      assert.deepEqual(
        [denied(await access.authenticate(t)).error, denied(await access.authenticate(t)).status],
        ['invalid_token', 401],
      );
    }
    assert.equal(prepared, 0);
    app.sqlite.prepare = prep;
    app.sqlite.pragma('query_only = OFF');
    // Well formed but unknown: a lookup, then invalid_token.
    assert.equal(denied(await access.authenticate(good)).error, 'invalid_token');
  } finally {
    await cleanup();
  }
});

test('token states with an injected clock: active, deactivated, expired, invalidated', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-04-01T12:00:00-03:00');
    const access = sqliteMeter(app.sqlite, { now: clock });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Ouro' }, clock);
    const perm = await createToken(sqliteStore(app), { accountId: acc.id, name: 'prod', createdBy: 'cli' }, clock);
    const dated = await createToken(
      sqliteStore(app),
      { accountId: acc.id, name: 'ci', expires: '2026-04-10', createdBy: 7 },
      clock,
    );
    const days = await createToken(
      sqliteStore(app),
      { accountId: acc.id, name: 'dev', expires: '30d', createdBy: 'cli' },
      clock,
    );
    assert.equal(dated.info.expiresAt, '2026-04-10');
    assert.equal(days.info.expiresAt, '2026-05-01');
    assert.equal(dated.info.createdBy, '7');
    assert.equal(perm.info.expiresAt, null);

    const g = granted(await access.authenticate(perm.token));
    assert.deepEqual([g.accountId, g.accountName, g.tokenId], [acc.id, 'Acme', perm.id]);
    assert.deepEqual(g.quota, { limit: 50000, remaining: 50000, reset: Date.parse('2026-05-01T03:00:00Z') / 1000 });

    // Deactivate / activate toggles only that token.
    await deactivateToken(sqliteStore(app), perm.id, {}, clock);
    assert.deepEqual(
      [denied(await access.authenticate(perm.token)).error, denied(await access.authenticate(perm.token)).status],
      ['token_deactivated', 401],
    );
    granted(await access.authenticate(dated.token));
    assert.equal((await activateToken(sqliteStore(app), perm.id, {}, clock)).state, 'active');
    granted(await access.authenticate(perm.token));

    // Valid through the last day (São Paulo), expired from the next midnight there.
    clock.set('2026-04-10T23:59:59-03:00');
    granted(await access.authenticate(dated.token));
    clock.set('2026-04-11T00:00:00-03:00');
    const e = denied(await access.authenticate(dated.token));
    assert.deepEqual([e.error, e.status], ['token_expired', 401]);
    assert.match(e.message, /10\/04\/2026/);
    assert.equal((await getTokenInfo(sqliteStore(app), dated.id, clock))?.state, 'expired');
    granted(await access.authenticate(perm.token));

    // Web scope: a token of another account is "not found".
    await assert.rejects(
      deactivateToken(sqliteStore(app), perm.id, { accountId: acc.id + 1 }, clock),
      (x: AccountsError) => x.code === 'not_found',
    );
    assert.deepEqual(
      (await listTokens(sqliteStore(app), acc.id, clock)).map((t) => [t.name, t.state]),
      [
        ['prod', 'active'],
        ['ci', 'expired'],
        ['dev', 'active'],
      ],
    );
  } finally {
    await cleanup();
  }
});

test('plan without API access is refused with 403, and allowed again when the operator flips it', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const access = sqliteMeter(app.sqlite);
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Bronze' });
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    await setPlan(sqliteStore(app), 'Bronze', { apiIncluded: false });
    const d = denied(await access.authenticate(t.token));
    assert.deepEqual([d.error, d.status], ['plan_without_api', 403]);
    assert.match(d.message, /Bronze/);
    await setPlan(sqliteStore(app), 'Bronze', { apiIncluded: true });
    granted(await access.authenticate(t.token));
  } finally {
    await cleanup();
  }
});

test('what the API keeps in memory follows changes made through another connection at once', async () => {
  // The server checks tokens on a connection of its own and keeps the token rows it has read.
  const { app, access, t, cleanup } = await apiSetup();
  try {
    assert.equal(granted(await access.authenticate(t.token)).quota.limit, 50000);
    assert.equal(granted(await access.authenticate(t.token)).quota.limit, 50000, 'served from memory');

    await deactivateToken(sqliteStore(app), t.info.id);
    assert.equal(denied(await access.authenticate(t.token)).error, 'token_deactivated');
    await activateToken(sqliteStore(app), t.info.id);
    granted(await access.authenticate(t.token));

    await setPlan(sqliteStore(app), 'Ouro', { monthlyQuota: 7 });
    assert.equal(granted(await access.authenticate(t.token)).quota.limit, 7);
    await setPlan(sqliteStore(app), 'Ouro', { apiIncluded: false });
    assert.equal(denied(await access.authenticate(t.token)).error, 'plan_without_api');
    await setPlan(sqliteStore(app), 'Ouro', { apiIncluded: true });
    granted(await access.authenticate(t.token));

    // A counted call and the last-used stamp do not empty the cache, but they are not cached:
    // the quota state is read fresh.
    assert.ok((await access.charge(granted(await access.authenticate(t.token)))).ok);
    assert.equal(granted(await access.authenticate(t.token)).quota.remaining, 6);

    await suspendAccount(sqliteStore(app), 'Acme');
    assert.equal(denied(await access.authenticate(t.token)).error, 'account_suspended');
    await reactivateAccount(sqliteStore(app), 'Acme');
    assert.equal(
      denied(await access.authenticate(t.token)).error,
      'account_suspended',
      'suspension invalidated the token for good',
    );

    app.sqlite.prepare('DELETE FROM api_tokens WHERE id = ?').run(t.info.id);
    assert.equal(denied(await access.authenticate(t.token)).error, 'invalid_token');
  } finally {
    await cleanup();
  }
});

test('a token changed between its check and its count is decided again inside the count', async () => {
  const { app, access, acc, t, cleanup } = await apiSetup();
  try {
    granted(await access.authenticate(t.token)); // now in memory

    // The hot path grants from memory; the change lands before the call is counted.
    const id = await access.identifyForCount(t.token);
    assert.ok(id.ok);
    await deactivateToken(sqliteStore(app), t.info.id);
    const r = await access.charge(id);
    assert.equal(denied(r).error, 'token_deactivated');
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 0, 'a refused call is not counted');
    // Denials are never served from memory: reactivated elsewhere, the next check passes.
    assert.equal(denied(await access.identifyForCount(t.token)).error, 'token_deactivated');
    await activateToken(sqliteStore(app), t.info.id);
    const again = await access.identifyForCount(t.token);
    assert.ok(again.ok);

    // A plan change between check and count: the new limit applies to this very call.
    await setPlan(sqliteStore(app), 'Ouro', { monthlyQuota: 0 });
    assert.equal(denied(await access.charge(again)).error, 'quota_exceeded');
    await setPlan(sqliteStore(app), 'Ouro', { monthlyQuota: 3 });
    const next = await access.identifyForCount(t.token);
    assert.ok(next.ok);
    const ok = granted(await access.charge(next));
    assert.deepEqual([ok.quota.limit, ok.quota.remaining], [3, 2]);
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 1);
  } finally {
    await cleanup();
  }
});

test('memory on the hot path; a count under an epoch that moved decides its calls again; the contacts copy follows the count', async () => {
  const { app, apiConn, t, cleanup } = await apiSetup();
  try {
    const store = new SqliteMetering(apiConn);
    const reads: string[] = [];
    const watched: MeteringStore = {
      tokenByHash: (hash, month) => (reads.push('token'), store.tokenByHash(hash, month)),
      tokensById: (ids) => (reads.push('tokens'), store.tokensById(ids)),
      accounts: (ids) => (reads.push('accounts'), store.accounts(ids)),
      accountWithUsage: (id, month) => (reads.push('account'), store.accountWithUsage(id, month)),
      count: (batch) => (reads.push('count'), store.count(batch)),
    };
    const synced: number[] = [];
    const access = new Meter(watched, { contacts: { sync: (epoch) => void synced.push(epoch) } });
    assert.ok((await access.identify(t.token)).ok); // read, and now in memory
    assert.ok((await access.identifyForCount(t.token)).ok);
    assert.deepEqual(reads.splice(0), ['token'], 'the hot path found the token in memory');

    await deactivateToken(sqliteStore(app), t.info.id);
    // By design the hot path does not read auth_epoch: the count compares it and decides again.
    const cached = await access.identifyForCount(t.token);
    assert.ok(cached.ok);
    assert.equal(denied(await access.charge(cached)).error, 'token_deactivated');
    assert.deepEqual(
      reads.splice(0),
      ['count', 'tokens'],
      'refused by the epoch, decided again, nothing left to count',
    );
    assert.equal(denied(await access.identifyForCount(t.token)).error, 'token_deactivated');
    assert.deepEqual(reads.splice(0), ['token'], 'a denial is always decided on a fresh read');

    // The contacts epoch comes with the count, before its answer.
    await activateToken(sqliteStore(app), t.info.id);
    app.sqlite.prepare('UPDATE contacts_epoch SET n = n + 5 WHERE id = 1').run();
    const again = await access.identifyForCount(t.token);
    assert.ok(again.ok);
    granted(await access.charge(again));
    assert.equal(synced.at(-1), app.sqlite.prepare('SELECT n FROM contacts_epoch WHERE id = 1').pluck().get());
  } finally {
    await cleanup();
  }
});
