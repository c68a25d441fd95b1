// Meter.identifyAccount: the web app's Consulta page counts against the account's monthly
// quota with no token (src/domain/metering/meter.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount, suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { NO_TOKEN } from '../../../src/domain/metering/access.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { createToken } from '../../../src/domain/accounts/tokens.ts';
import { CONSULTA_WEB, currentUsage, dailyUsage } from '../../../src/domain/accounts/usage.ts';
import { denied, granted, sqliteMeter } from './helpers/api-setup.ts';
import { manualClock, tempAppDb } from '../accounts/helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

test("identifyAccount: counts in the same monthly quota as tokens, in its own daily row (no token's); refusals", async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const clock = manualClock('2026-03-10T12:00:00-03:00');
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 3 });
    const access = sqliteMeter(app.sqlite, { now: clock });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Mini' }, clock);
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);

    const id = await access.identifyAccount(acc.id);
    assert.ok(id.ok);
    assert.deepEqual([id.accountId, id.tokenId, id.limit], [acc.id, NO_TOKEN, 3]);
    assert.equal(granted(await access.charge(id)).quota.remaining, 2);
    assert.equal(granted(await access.charge(granted(await access.authenticate(t.token)))).quota.remaining, 1);
    assert.equal(granted(await access.charge(id)).quota.remaining, 0);
    assert.equal(denied(await access.charge(id)).error, 'quota_exceeded');
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).calls, 3);
    // Nothing left: refused when identified, before the page's work, in this process or a fresh one.
    for (const meter of [access, sqliteMeter(app.sqlite, { now: clock })]) {
      const over = denied(await meter.identifyAccount(acc.id));
      assert.deepEqual([over.error, over.status, over.retryAfter], ['quota_exceeded', 429, 1_857_600]); // until April's first hour in São Paulo
    }
    // The token's day holds its one call; the Consulta page's two (not the refused third) are
    // the account's "Consulta (web)" row of the day, listed first.
    assert.deepEqual(
      (await dailyUsage(sqliteStore(app), acc.id, { now: clock })).map((d) => [d.day, d.tokenId, d.tokenName, d.calls]),
      [
        ['2026-03-10', NO_TOKEN, CONSULTA_WEB, 2],
        ['2026-03-10', t.id, 'a', 1],
      ],
    );
    assert.equal(
      app.sqlite.prepare('SELECT sum(calls) FROM usage_daily').pluck().get(),
      1,
      'no token row for the web calls',
    );
    // Another day, a batch-sized charge: counted exactly, in that day's row.
    clock.set('2026-03-11T09:00:00-03:00');
    await setPlan(sqliteStore(app), 'Mini', { monthlyQuota: 10 });
    const id2 = await access.identifyAccount(acc.id);
    assert.ok(id2.ok);
    await Promise.all([access.charge(id2), access.charge(id2), access.charge(id2, 3)]);
    assert.deepEqual(
      (await dailyUsage(sqliteStore(app), acc.id, { now: clock }))
        .filter((d) => d.tokenId === NO_TOKEN)
        .map((d) => [d.day, d.calls]),
      [
        ['2026-03-11', 5],
        ['2026-03-10', 2],
      ],
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id, clock)).calls, 8);

    assert.equal(denied(await access.identifyAccount(999)).error, 'account_suspended');
    await setPlan(sqliteStore(app), 'Mini', { apiIncluded: false });
    assert.equal(denied(await access.identifyAccount(acc.id)).error, 'plan_without_api');
    await setPlan(sqliteStore(app), 'Mini', { apiIncluded: true });
    await suspendAccount(sqliteStore(app), 'Acme', clock);
    assert.equal(denied(await access.identifyAccount(acc.id)).error, 'account_suspended');
    // A grant made before the suspension is decided again when counted.
    assert.equal(denied(await access.charge(id)).error, 'account_suspended');
  } finally {
    await cleanup();
  }
});
