// Tokens and accounts as the operator and the web app change them: expiry, suspension and
// reactivation, and what the API then answers; on both app-state backends. The API's checks
// themselves: token-identity.test.ts, quota-counter.test.ts, group-commit.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  changeAccountPlan,
  createAccount,
  getAccountByName,
  listAccounts,
  reactivateAccount,
  requireAccount,
  suspendAccount,
} from '../../../src/domain/accounts/accounts.ts';
import { AccountsError } from '../../../src/domain/accounts/errors.ts';
import {
  activateToken,
  createToken,
  deactivateToken,
  getTokenInfo,
  listTokens,
  parseExpiry,
} from '../../../src/domain/accounts/tokens.ts';
import { CONSULTA_WEB, currentUsage, dailyUsage, monthlyHistory } from '../../../src/domain/accounts/usage.ts';
import { forBackends } from '../../helpers/app-backends.ts';
import { denied, granted, sqliteMeter } from '../metering/helpers/api-setup.ts';
import { manualClock } from './helpers/setup.ts';

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

forBackends('accounts and tokens', ({ backend, open }) => {
  test('suspension invalidates every token for good; reactivation needs new tokens', async () => {
    const app = await open();
    const clock = manualClock('2026-04-01T12:00:00-03:00');
    // The API's own check reads app.db; with PostgreSQL the token states below say the same.
    const access = backend === 'sqlite' ? sqliteMeter(app.local.sqlite, { now: clock }) : null;
    const refused = async (token: string) => {
      if (!access) return;
      const d = denied(await access.authenticate(token));
      assert.deepEqual([d.error, d.status], ['account_suspended', 403]);
    };
    const acc = await createAccount(app, { name: 'Acme', plan: 'Ouro' }, clock);
    const other = await createAccount(app, { name: 'Other', plan: 'Ouro' }, clock);
    const t1 = await createToken(app, { accountId: acc.id, name: 'a', createdBy: 'cli' }, clock);
    const t2 = await createToken(app, { accountId: acc.id, name: 'b', createdBy: 'cli' }, clock);
    const t3 = await createToken(app, { accountId: other.id, name: 'c', createdBy: 'cli' }, clock);
    assert.equal((await deactivateToken(app, t2.id, {}, clock)).state, 'deactivated');

    const { invalidatedTokens, account } = await suspendAccount(app, 'acme', clock);
    assert.equal(invalidatedTokens, 2);
    assert.deepEqual([account.status, account.suspendedAt], ['suspended', clock().toISOString()]);
    for (const t of [t1, t2]) await refused(t.token);
    if (access) granted(await access.authenticate(t3.token)); // other accounts unaffected
    assert.equal((await getTokenInfo(app, t3.id, clock))?.state, 'active');
    await assert.rejects(
      createToken(app, { accountId: acc.id, name: 'x', createdBy: 'cli' }, clock),
      (x: AccountsError) => x.code === 'invalid_state' && x.reason === 'account_suspended',
    );
    await assert.rejects(suspendAccount(app, 'Acme', clock), AccountsError);

    assert.equal((await reactivateAccount(app, 'ACME')).status, 'active');
    await assert.rejects(reactivateAccount(app, 'Acme'), AccountsError);
    for (const t of [t1, t2]) await refused(t.token);
    await assert.rejects(activateToken(app, t1.id, {}, clock), (x: AccountsError) => x.code === 'invalid_state');
    assert.deepEqual(
      (await listTokens(app, acc.id, clock)).map((t) => t.state),
      ['invalidated', 'invalidated'],
    );
    const fresh = await createToken(app, { accountId: acc.id, name: 'new', createdBy: 'cli' }, clock);
    if (access) granted(await access.authenticate(fresh.token));
    assert.equal(fresh.info.state, 'active');
    // A second suspension invalidates the new token too, keeping the first date on the old ones.
    clock.set('2026-05-01T12:00:00-03:00');
    await suspendAccount(app, 'Acme', clock);
    assert.equal(
      (await getTokenInfo(app, t1.id, clock))?.invalidatedAt,
      new Date('2026-04-01T12:00:00-03:00').toISOString(),
    );
    assert.equal((await getTokenInfo(app, fresh.id, clock))?.state, 'invalidated');
  });

  test('account names: unique ignoring ASCII case, found in any case, listed in that order', async () => {
    const app = await open();
    await createAccount(app, { name: 'beta', plan: 'ouro' });
    const acme = await createAccount(app, { name: '  Acme   Ltda ', plan: 'Bronze' });
    await createAccount(app, { name: 'Zeta', plan: 'Prata' });
    assert.deepEqual([acme.name, acme.plan, acme.status], ['Acme Ltda', 'Bronze', 'active']);
    await assert.rejects(createAccount(app, { name: 'ACME LTDA', plan: 'Ouro' }), /already exists/);
    await assert.rejects(createAccount(app, { name: 'Nova', plan: 'Platina' }), /Plan "Platina" does not exist/);
    assert.equal((await getAccountByName(app, 'acme ltda'))?.id, acme.id);
    assert.equal(await getAccountByName(app, 'acme'), null);
    await assert.rejects(requireAccount(app, 'nobody'), /Account "nobody" does not exist/);
    assert.deepEqual(
      (await listAccounts(app)).map((a) => a.name),
      ['Acme Ltda', 'beta', 'Zeta'],
    );
    assert.equal((await changeAccountPlan(app, 'ACME LTDA', 'diamante')).plan, 'Diamante');
  });

  test('usage: this month against the quota, past months, calls per token and day', async () => {
    const app = await open();
    const clock = manualClock('2026-04-10T12:00:00-03:00');
    const acc = await createAccount(app, { name: 'Acme', plan: 'Bronze' });
    const t = await createToken(app, { accountId: acc.id, name: 'prod', createdBy: 'cli' }, clock);
    assert.deepEqual(
      { ...(await currentUsage(app, acc.id, clock)), reset: 0 },
      { month: '2026-04', plan: 'Bronze', apiIncluded: true, calls: 0, limit: 5000, remaining: 5000, reset: 0 },
    );
    await app.db
      .insertInto('usage_monthly')
      .values([
        { account_id: acc.id, month: '2026-03', calls: 7 },
        { account_id: acc.id, month: '2026-04', calls: 12 },
      ])
      .execute();
    await app.db
      .insertInto('usage_daily')
      .values([
        { token_id: t.id, day: '2026-04-09', calls: 5 },
        { token_id: t.id, day: '2026-04-10', calls: 4 },
      ])
      .execute();
    await app.db.insertInto('usage_daily_web').values({ account_id: acc.id, day: '2026-04-10', calls: 3 }).execute();
    const usage = await currentUsage(app, acc.id, clock);
    assert.deepEqual([usage.calls, usage.remaining], [12, 4988]);
    assert.deepEqual(await monthlyHistory(app, acc.id), [
      { month: '2026-04', calls: 12 },
      { month: '2026-03', calls: 7 },
    ]);
    assert.deepEqual(await dailyUsage(app, acc.id, { now: clock }), [
      { day: '2026-04-10', tokenId: 0, tokenName: CONSULTA_WEB, calls: 3 },
      { day: '2026-04-10', tokenId: t.id, tokenName: 'prod', calls: 4 },
      { day: '2026-04-09', tokenId: t.id, tokenName: 'prod', calls: 5 },
    ]);
    await assert.rejects(currentUsage(app, acc.id + 100, clock), /does not exist/);
  });

  test('a token created while the account is being suspended is refused or invalidated, never left valid', async () => {
    const app = await open();
    // Rounds of concurrent creations through separate connections with one suspension among them:
    // a creation that read "active" before the suspension committed must not insert after it.
    for (let round = 0; round < 8; round++) {
      const acc = await createAccount(app, { name: `Race ${round}`, plan: 'Ouro' });
      const creations = Array.from({ length: 12 }, (_, i) =>
        createToken(app, { accountId: acc.id, name: `t${i}`, createdBy: 'cli' }).then(
          () => 'created',
          (err: AccountsError) => err.reason,
        ),
      );
      const suspension = new Promise((r) => setTimeout(r, round % 4)).then(() => suspendAccount(app, acc.name));
      const outcomes = await Promise.all(creations);
      await suspension;
      assert.ok(
        outcomes.every((o) => o === 'created' || o === 'account_suspended'),
        outcomes.join(),
      );
      const states = (await listTokens(app, acc.id)).map((t) => t.state);
      assert.equal(states.length, outcomes.filter((o) => o === 'created').length);
      assert.deepEqual(
        states.filter((s) => s !== 'invalidated'),
        [],
        `round ${round}: a token outlived the suspension`,
      );
    }
  });
});
