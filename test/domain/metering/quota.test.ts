// The monthly quota: exact counting, the quota state without counting, 429 with Retry-After,
// the daily rows and the lazy last-used stamp (src/domain/metering/meter.ts and quota.ts over
// app.db's src/storage/app/metering-sqlite.ts). Exactness across processes: concurrency.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { countAnswer, usageState } from '../../../src/domain/metering/quota.ts';
import { MonthTally } from '../../../src/storage/app/metering-sqlite.ts';
import { createToken, getTokenInfo } from '../../../src/domain/accounts/tokens.ts';
import { currentUsage, dailyUsage } from '../../../src/domain/accounts/usage.ts';
import { denied, granted, sqliteMeter } from './helpers/api-setup.ts';
import { manualClock, tempAppDb } from '../accounts/helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';
import type { CompanyRegistry } from '../../../src/domain/company/lookup.ts';
import { countedSearch } from '../../../src/domain/search/counted.ts';

test('quota: consume counts exactly, 429 with Retry-After when used up; authenticate does not count', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-03-31T23:30:00-03:00');
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 3 });
    const access = sqliteMeter(app.sqlite, { now: clock });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Mini' }, clock);
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);
    const aprilStart = Date.parse('2026-04-01T03:00:00Z') / 1000;

    for (let i = 0; i < 5; i++) granted(await access.authenticate(t.token));
    const g = granted(await access.authenticate(t.token));
    assert.deepEqual(g.quota, { limit: 3, remaining: 3, reset: aprilStart });
    assert.equal(granted(await access.charge(g)).quota.remaining, 2);
    assert.equal(granted(await access.charge(g)).quota.remaining, 1);
    assert.equal(granted(await access.charge(g)).quota.remaining, 0);
    // consume() with a stale grant still cannot pass the limit.
    const over = denied(await access.charge(g));
    assert.deepEqual([over.error, over.status, over.retryAfter], ['quota_exceeded', 429, 1800]);
    assert.deepEqual(over.quota, { limit: 3, remaining: 0, reset: aprilStart });
    assert.match(over.message, /01\/04\/2026/);
    const early = denied(await access.authenticate(t.token));
    assert.deepEqual([early.error, early.retryAfter], ['quota_exceeded', 1800]);
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).calls, 3);

    // Month rollover in São Paulo: 23:30 on March 31st was March, 00:30 on April 1st is April.
    clock.set('2026-04-01T00:30:00-03:00');
    const april = granted(await access.authenticate(t.token));
    assert.deepEqual(april.quota, { limit: 3, remaining: 3, reset: Date.parse('2026-05-01T03:00:00Z') / 1000 });
    assert.equal(granted(await access.charge(april)).quota.remaining, 2);
    const usage = await currentUsage(sqliteStore(app), acc.id, clock);
    assert.deepEqual([usage.month, usage.calls, usage.remaining], ['2026-04', 1, 2]);
    assert.deepEqual(
      (await dailyUsage(sqliteStore(app), acc.id, { now: clock })).map((d) => [d.day, d.tokenName, d.calls]),
      [
        ['2026-04-01', 'a', 1],
        ['2026-03-31', 'a', 3],
      ],
    );

    // UTC has already turned the day and month, São Paulo has not.
    clock.set('2026-05-01T02:59:59Z');
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).month, '2026-04');
    // Raising the plan quota applies to the next request.
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 10 });
    assert.equal(granted(await access.authenticate(t.token)).quota.remaining, 9);
  } finally {
    await cleanup();
  }
});

test('last_used_at is written lazily, at most once a minute per token', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-04-01T12:00:00Z');
    const access = sqliteMeter(app.sqlite, { now: clock });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Ouro' }, clock);
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);
    assert.equal((await getTokenInfo(sqliteStore(app), t.id))?.lastUsedAt, null);
    const use = async () => granted(await access.charge(granted(await access.authenticate(t.token))));
    await use();
    assert.equal((await getTokenInfo(sqliteStore(app), t.id))?.lastUsedAt, '2026-04-01T12:00:00.000Z');
    clock.set('2026-04-01T12:00:59Z');
    await use();
    assert.equal((await getTokenInfo(sqliteStore(app), t.id))?.lastUsedAt, '2026-04-01T12:00:00.000Z');
    clock.set('2026-04-01T12:01:00Z');
    await use();
    assert.equal((await getTokenInfo(sqliteStore(app), t.id))?.lastUsedAt, '2026-04-01T12:01:00.000Z');
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).calls, 3);
  } finally {
    await cleanup();
  }
});

test('MonthTally stops at the limit (a limit of 0 counts nothing); the quota state and the answers it makes', () => {
  const written = new Map<number, number>();
  const stored = new Map<number, number>([[7, 1]]);
  const tally = new MonthTally(
    (account) => stored.get(account) ?? 0,
    (account, n) => written.set(account, (written.get(account) ?? 0) + n),
  );
  assert.equal(tally.charge(7, 1, 0), false, 'a limit of 0');
  assert.deepEqual([tally.charge(7, 1, 3), tally.charge(7, 1, 3), tally.charge(7, 1, 3)], [true, true, false]);
  assert.deepEqual([tally.charge(8, 2, 2), tally.used(8), tally.charge(8, 1, 2)], [true, 2, false]);
  assert.throws(() => tally.charge(8, 0, 5), RangeError);
  assert.equal(written.size, 0, 'nothing written before write()');
  tally.write();
  assert.deepEqual(
    [...written],
    [
      [7, 2],
      [8, 2],
    ],
  );

  const at = new Date('2026-04-10T12:00:00-03:00');
  const id = { ok: true as const, accountId: 7, accountName: 'Acme', tokenId: 1, limit: 2 };
  const over = denied(usageState(id, 2, at));
  assert.deepEqual([over.error, over.status, over.quota?.remaining], ['quota_exceeded', 429, 0]);
  assert.equal(over.retryAfter, 21 * 86_400 - 12 * 3600); // until May 1st, 00:00 in São Paulo
  assert.deepEqual(granted(countAnswer(id, 1, at, 1, 1)).quota, over.quota && { ...over.quota, remaining: 1 });
  assert.equal(granted(usageState(id, 1, at)).quota.remaining, 1);
});

test('a batch of N calls: reserved whole or refused whole, the refusal says how many remain', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-04-10T12:00:00-03:00');
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 5 });
    const access = sqliteMeter(app.sqlite, { now: clock });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Mini' }, clock);
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);
    const g = granted(await access.authenticate(t.token));

    // More than the whole quota on the month's first call: no row is created, nothing counted.
    const tooMany = denied(await access.charge(g, 6));
    assert.deepEqual([tooMany.error, tooMany.quota?.remaining], ['quota_exceeded', 5]);
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).calls, 0);
    assert.match(
      tooMany.message,
      /^Este lote precisa de 6 consultas, mas restam 5 da cota mensal de 5 consultas da API; ela será renovada em 01\/05\/2026\.$/,
    );

    assert.equal(granted(await access.charge(g, 3)).quota.remaining, 2);
    const over = denied(await access.charge(g, 3));
    assert.deepEqual(
      [over.error, over.status, over.quota?.remaining, over.retryAfter],
      ['quota_exceeded', 429, 2, 21 * 86_400 - 12 * 3600],
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).calls, 3, 'a refused batch counts nothing');
    assert.equal(granted(await access.charge(g, 2)).quota.remaining, 0);
    const empty = denied(await access.charge(g, 2));
    assert.equal(empty.quota?.remaining, 0);
    assert.match(
      empty.message,
      /^A cota mensal de 5 consultas da API foi atingida/,
      'nothing left: the plain sentence',
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).calls, 5);
    // The token's daily row has every call of the batches it was granted.
    assert.deepEqual(
      (await dailyUsage(sqliteStore(app), acc.id, { now: clock })).map((d) => [d.day, d.calls]),
      [['2026-04-10', 5]],
    );

    for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => access.charge(g, bad), RangeError);
  } finally {
    await cleanup();
  }
});

test('grouped: a batch and single calls in one turn, each request its own all-or-nothing check, in order', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 10 });
    const access = sqliteMeter(app.sqlite);
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Mini' });
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const g = granted(await access.authenticate(t.token));
    const results = await Promise.all([
      access.charge(g),
      access.charge(g, 6),
      access.charge(g, 4), // 3 left: refused whole
      access.charge(g, 3),
      access.charge(g), // used up
    ]);
    assert.deepEqual(
      results.map((r) => (r.ok ? r.quota.remaining : `${r.error}:${r.quota?.remaining}`)),
      [9, 3, 'quota_exceeded:3', 0, 'quota_exceeded:0'],
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 10);
  } finally {
    await cleanup();
  }
});

test('a token whose quota is used up is refused before the route works (a search runs no engine), until the quota has room', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-03-31T23:30:00-03:00');
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 2 });
    const access = sqliteMeter(app.sqlite, { now: clock });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Mini' }, clock);
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);

    // What a counted search does before and during its work, counted: the snapshot read and the engine's answer.
    let snapshotReads = 0;
    let engineRuns = 0;
    const registry = {
      get snapshot() {
        snapshotReads++;
        return null;
      },
    } as unknown as CompanyRegistry;
    const searchOnce = (meter: typeof access) =>
      countedSearch(
        { access: meter, registry },
        {
          identify: () => meter.identifyForCount(t.token),
          read: () => ({ ok: true, value: {} }),
          answer: () => engineRuns++,
        },
      );

    for (let i = 0; i < 2; i++) granted(await access.charge(granted(await access.identifyForCount(t.token))));
    // The token is in memory, granted a moment ago: the count that finds the quota used up marks it.
    const over = denied(await access.charge(granted(await access.identifyForCount(t.token))));
    assert.equal(over.error, 'quota_exceeded');

    const refused = await searchOnce(access);
    assert.equal(refused.kind, 'denied');
    assert.equal(refused.kind === 'denied' && refused.denied.error, 'quota_exceeded');
    assert.equal(refused.kind === 'denied' && refused.denied.retryAfter, 1800);
    // A process that never counted for this token (another worker, a restart) refuses it at once too.
    const fresh = sqliteMeter(app.sqlite, { now: clock });
    const refusedFresh = await searchOnce(fresh);
    assert.equal(refusedFresh.kind === 'denied' && refusedFresh.denied.error, 'quota_exceeded');
    assert.deepEqual([snapshotReads, engineRuns], [0, 0]);

    // Room again (the plan raised): the very next call goes on to the route's work.
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 5 });
    const again = await searchOnce(access);
    assert.deepEqual([again.kind, again.kind === 'uncounted' && again.key], ['uncounted', 'registry_unavailable']);
    assert.equal(snapshotReads, 1);
    // The month turned: the mark of March is not April's.
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 2 });
    assert.equal(denied(await access.charge(granted(await access.identifyForCount(t.token)))).error, 'quota_exceeded');
    assert.equal(denied(await access.identifyForCount(t.token)).error, 'quota_exceeded');
    clock.set('2026-04-01T00:30:00-03:00');
    granted(await access.identifyForCount(t.token));
  } finally {
    await cleanup();
  }
});
