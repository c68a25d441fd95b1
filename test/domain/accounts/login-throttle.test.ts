// The login throttle's slots on both app-state backends: the limits per (e-mail, address) pair
// and per address, the sliding window, forgiveness, and concurrent attempts through separate
// connections (on PostgreSQL: as from several nodes) never getting more than the allowed slots.
// Through a real server on loopback: test/server/web/login-throttle.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  clearLoginFailures,
  forgetLoginFailures,
  MAX_FAILURES_PER_IP,
  MAX_FAILURES_PER_PAIR,
  reserveLoginAttempt,
  throttleAddress,
  WINDOW_MS,
} from '../../../src/domain/accounts/login-throttle.ts';
import { forBackends } from '../../helpers/app-backends.ts';

test('addresses: IPv4 as is, IPv6 by its /64, IPv4-mapped as IPv4', () => {
  assert.equal(throttleAddress('203.0.113.7'), '203.0.113.7');
  assert.equal(throttleAddress('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(throttleAddress('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(throttleAddress('2001:db8:1:2::9'), '2001:db8:1:2::/64');
});

forBackends('login throttle', ({ open }) => {
  test('per pair, then per address; the window slides; a success or a reset forgives', async () => {
    const app = await open();
    const t0 = new Date('2026-04-01T12:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const ip = '203.0.113.7';
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++)
      assert.deepEqual(await reserveLoginAttempt(app, 'ana@acme.com.br', ip, at(i * 1000)), { ok: true });
    assert.deepEqual(await reserveLoginAttempt(app, 'ana@acme.com.br', ip, at(10_000)), {
      ok: false,
      retryAfterSeconds: WINDOW_MS / 1000 - 10,
    });
    // Another address, or another e-mail from this one: still allowed.
    assert.equal((await reserveLoginAttempt(app, 'ana@acme.com.br', '198.51.100.1', at(10_000))).ok, true);
    assert.equal((await reserveLoginAttempt(app, 'bia@acme.com.br', ip, at(10_000))).ok, true);
    // The oldest slot leaves the window: one more attempt.
    assert.equal((await reserveLoginAttempt(app, 'ana@acme.com.br', ip, at(WINDOW_MS + 1))).ok, true);
    assert.equal((await reserveLoginAttempt(app, 'ana@acme.com.br', ip, at(WINDOW_MS + 2))).ok, false);
    await clearLoginFailures(app, 'ana@acme.com.br', ip);
    assert.equal((await reserveLoginAttempt(app, 'ana@acme.com.br', ip, at(WINDOW_MS + 3))).ok, true);
    await forgetLoginFailures(app, 'ana@acme.com.br');
    const left = await app.db.selectFrom('login_attempts').select(['email', 'ip']).orderBy('id').execute();
    assert.deepEqual(left, [{ email: 'bia@acme.com.br', ip }]);

    // Many e-mails from one address: the address's limit.
    const office = '192.0.2.50';
    const results = [];
    for (let i = 0; i < MAX_FAILURES_PER_IP + 2; i++)
      results.push((await reserveLoginAttempt(app, `u${i}@acme.com.br`, office, at(WINDOW_MS + 10))).ok);
    assert.equal(results.filter(Boolean).length, MAX_FAILURES_PER_IP);
  });

  test('concurrent attempts for one e-mail and address get exactly the allowed slots', async () => {
    const app = await open();
    const now = new Date();
    for (let round = 0; round < 3; round++) {
      const email = `alvo${round}@acme.com.br`;
      const slots = await Promise.all(
        Array.from({ length: 20 }, () => reserveLoginAttempt(app, email, '203.0.113.9', now)),
      );
      assert.equal(slots.filter((s) => s.ok).length, MAX_FAILURES_PER_PAIR, `round ${round}`);
      await forgetLoginFailures(app, email);
    }
    // And many e-mails from one address at once: the address's limit holds too.
    const slots = await Promise.all(
      Array.from({ length: 40 }, (_, i) => reserveLoginAttempt(app, `x${i}@acme.com.br`, '192.0.2.99', now)),
    );
    assert.equal(slots.filter((s) => s.ok).length, MAX_FAILURES_PER_IP);
  });
});
