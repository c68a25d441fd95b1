// Tokens and accounts as the operator and the web app change them: expiry, suspension and
// reactivation, and what the API then answers. The API's checks themselves:
// token-identity.test.ts, quota-counter.test.ts, group-commit.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAccount, reactivateAccount, suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { ApiAccess } from '../../../src/domain/accounts/api-access.ts';
import { AccountsError } from '../../../src/domain/accounts/errors.ts';
import {
  activateToken,
  createToken,
  deactivateToken,
  getTokenInfo,
  listTokens,
  parseExpiry,
} from '../../../src/domain/accounts/tokens.ts';
import { denied, granted } from './helpers/api-setup.ts';
import { manualClock, tempAppDb } from './helpers/setup.ts';

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
    assert.throws(
      () => createToken(app.sqlite, { accountId: acc.id, name: 'x', createdBy: 'cli' }, clock),
      (x: AccountsError) => x.code === 'invalid_state',
    );
    assert.throws(() => suspendAccount(app.sqlite, 'Acme', clock), AccountsError);

    reactivateAccount(app.sqlite, 'ACME');
    assert.throws(() => reactivateAccount(app.sqlite, 'Acme'), AccountsError);
    for (const t of [t1, t2]) assert.equal(denied(access.authenticate(t.token)).error, 'account_suspended');
    assert.throws(
      () => activateToken(app.sqlite, t1.id, {}, clock),
      (x: AccountsError) => x.code === 'invalid_state',
    );
    assert.deepEqual(
      listTokens(app.sqlite, acc.id, clock).map((t) => t.state),
      ['invalidated', 'invalidated'],
    );
    const fresh = createToken(app.sqlite, { accountId: acc.id, name: 'new', createdBy: 'cli' }, clock);
    granted(access.authenticate(fresh.token));
    // A second suspension invalidates the new token too, keeping the first date on the old ones.
    clock.set('2026-05-01T12:00:00-03:00');
    suspendAccount(app.sqlite, 'Acme', clock);
    assert.equal(
      getTokenInfo(app.sqlite, t1.id, clock)?.invalidatedAt,
      new Date('2026-04-01T12:00:00-03:00').toISOString(),
    );
    assert.equal(getTokenInfo(app.sqlite, fresh.id, clock)?.state, 'invalidated');
  } finally {
    await cleanup();
  }
});
