// Passwords, plans and users, on both app-state backends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  hashPassword,
  hashPasswordSync,
  passwordProblem,
  verifyPassword,
  verifyPasswordSync,
} from '../../../src/domain/accounts/passwords.ts';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { AccountsError } from '../../../src/domain/accounts/errors.ts';
import { getPlan, listPlans, requirePlan, setPlan } from '../../../src/domain/accounts/plans.ts';
import {
  createUser,
  createUserSync,
  getUser,
  getUserByEmail,
  listUsers,
  removeUser,
  requireUserByEmail,
  setUserPassword,
  verifyLogin,
} from '../../../src/domain/accounts/users.ts';
import { createSession, loadSession } from '../../../src/server/web/session.ts';
import { forBackends } from '../../helpers/app-backends.ts';

test('scrypt hashes are salted and verify in constant time, sync and async', async () => {
  const h1 = hashPasswordSync('correct horse battery');
  const h2 = await hashPassword('correct horse battery');
  assert.match(h1, /^scrypt\$16384\$8\$1\$/);
  assert.notEqual(h1, h2);
  assert.ok(verifyPasswordSync('correct horse battery', h2));
  assert.ok(await verifyPassword('correct horse battery', h1));
  assert.equal(await verifyPassword('correct horse batterY', h1), false);
  assert.equal(verifyPasswordSync('x', 'not-a-hash'), false);
  assert.ok(passwordProblem('short'));
  assert.equal(passwordProblem('long enough!'), null);
});

const PASSWORD = 'senha-muito-boa';

forBackends('plans and users', ({ backend, open }) => {
  test('plans are seeded, listed in order and editable; new plans need a quota', async () => {
    const app = await open();
    assert.deepEqual(
      (await listPlans(app)).map((p) => [p.name, p.monthlyQuota, p.apiIncluded, p.watchlistLimit]),
      [
        ['Bronze', 5000, true, 100],
        ['Prata', 12500, true, 500],
        ['Ouro', 50000, true, 2000],
        ['Diamante', 200000, true, 10000],
        ['Black', 500000, true, 50000],
      ],
    );
    assert.equal((await getPlan(app, 'diamante'))?.name, 'Diamante');
    assert.equal(await getPlan(app, 'diamant'), null);
    await assert.rejects(requirePlan(app, 'Platina'), /Plan "Platina" does not exist \(plans: Bronze, Prata/);
    assert.equal((await setPlan(app, 'bronze', { apiIncluded: false })).apiIncluded, false);
    assert.equal((await setPlan(app, 'Ouro', { monthlyQuota: 60000 })).monthlyQuota, 60000);
    assert.equal((await setPlan(app, 'OURO', { watchlistLimit: 7 })).watchlistLimit, 7);
    await assert.rejects(setPlan(app, 'Enterprise', { apiIncluded: true }), AccountsError);
    await assert.rejects(setPlan(app, 'Ouro', { monthlyQuota: -1 }), AccountsError);
    const ent = await setPlan(app, 'Enterprise', { monthlyQuota: 1_000_000, apiIncluded: false, watchlistLimit: 5 });
    assert.deepEqual(ent, {
      name: 'Enterprise',
      monthlyQuota: 1_000_000,
      apiIncluded: false,
      watchlistLimit: 5,
      sortOrder: 60,
    });
    assert.equal((await listPlans(app)).at(-1)?.name, 'Enterprise');
  });

  test('users: lowercased unique e-mail, role check, login verification', async () => {
    const app = await open();
    const acc = await createAccount(app, { name: 'Acme', plan: 'Ouro' });
    const u = await createUser(app, {
      accountId: acc.id,
      email: ' Ana@Acme.COM.br ',
      password: PASSWORD,
      role: 'billing_admin',
    });
    assert.equal(u.email, 'ana@acme.com.br');
    assert.equal((await getUserByEmail(app, 'ANA@acme.com.br'))?.id, u.id);
    assert.deepEqual(await getUser(app, u.id), u);
    await assert.rejects(
      createUser(app, { accountId: acc.id, email: 'ana@acme.com.br', password: 'outra-senha-boa', role: 'member' }),
      /already exists/,
    );
    await assert.rejects(
      createUser(app, { accountId: acc.id, email: 'not-an-email', password: 'outra-senha-boa', role: 'member' }),
      AccountsError,
    );
    await assert.rejects(
      createUser(app, { accountId: acc.id, email: 'b@acme.com.br', password: 'curta', role: 'member' }),
      /at least 10 characters/,
    );
    await assert.rejects(
      createUser(app, {
        accountId: acc.id,
        email: 'b@acme.com.br',
        password: 'outra-senha-boa',
        role: 'root' as 'member',
      }),
      AccountsError,
    );
    await assert.rejects(
      createUser(app, { accountId: acc.id + 9, email: 'c@acme.com.br', password: PASSWORD, role: 'member' }),
      /does not exist/,
    );
    const m = await createUserSync(app, {
      accountId: acc.id,
      email: 'ze@acme.com.br',
      password: PASSWORD,
      role: 'member',
    });
    assert.deepEqual(
      (await listUsers(app, acc.id)).map((x) => [x.email, x.role]),
      [
        ['ana@acme.com.br', 'billing_admin'],
        ['ze@acme.com.br', 'member'],
      ],
    );
    assert.equal((await verifyLogin(app, 'ANA@acme.com.br', PASSWORD))?.id, u.id);
    assert.equal((await verifyLogin(app, 'ze@acme.com.br', PASSWORD))?.id, m.id);
    assert.equal(await verifyLogin(app, 'ana@acme.com.br', 'senha-errada!!'), null);
    assert.equal(await verifyLogin(app, 'nobody@acme.com.br', PASSWORD), null);
  });

  test('a new password ends the sessions; removal keeps the last billing admin unless forced', async () => {
    const app = await open();
    const now = new Date();
    const acc = await createAccount(app, { name: 'Acme', plan: 'Ouro' });
    const ana = await createUser(app, {
      accountId: acc.id,
      email: 'ana@acme.com.br',
      password: PASSWORD,
      role: 'billing_admin',
    });
    const bia = await createUser(app, {
      accountId: acc.id,
      email: 'bia@acme.com.br',
      password: PASSWORD,
      role: 'billing_admin',
    });
    await createUser(app, { accountId: acc.id, email: 'ze@acme.com.br', password: PASSWORD, role: 'member' });
    const cookie = await createSession(app.db, ana.id, now);
    await createSession(app.db, ana.id, now);
    assert.equal(await setUserPassword(app, ana.id, 'outra-senha-boa'), 2);
    assert.equal(await loadSession(app.db, cookie, now), null);
    assert.equal((await verifyLogin(app, 'ana@acme.com.br', 'outra-senha-boa'))?.id, ana.id);
    await assert.rejects(setUserPassword(app, 9999, 'outra-senha-boa'), /does not exist/);

    await createSession(app.db, bia.id, now);
    assert.deepEqual(await removeUser(app, 'BIA@acme.com.br'), { user: bia, sessionsEnded: 1 });
    await assert.rejects(
      removeUser(app, 'ana@acme.com.br'),
      (e: AccountsError) => e.code === 'last_billing_admin' && /last billing_admin of account "Acme"/.test(e.message),
    );
    assert.equal((await removeUser(app, 'ze@acme.com.br')).user.role, 'member');
    assert.equal((await removeUser(app, 'ana@acme.com.br', { force: true })).user.id, ana.id);
    assert.deepEqual(await listUsers(app, acc.id), []);
    await assert.rejects(requireUserByEmail(app, 'ana@acme.com.br'), /No user with the e-mail/);
  });

  test('two admins removed at once: exactly one removal succeeds, one billing admin is left', async () => {
    const app = await open();
    // Rounds of two concurrent removals through separate connections (on PostgreSQL, as on two
    // nodes): each must see the other's removal or wait for it, never both see the other admin.
    for (let round = 0; round < 10; round++) {
      const acc = await createAccount(app, { name: `Acme ${round}`, plan: 'Ouro' });
      const emails = [`a${round}@acme.com.br`, `b${round}@acme.com.br`];
      for (const email of emails)
        await createUserSync(app, { accountId: acc.id, email, password: PASSWORD, role: 'billing_admin' });
      const results = await Promise.allSettled(emails.map((e) => removeUser(app, e)));
      const ok = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter(
        (r) => r.status === 'rejected' && (r.reason as AccountsError).code === 'last_billing_admin',
      );
      assert.deepEqual([ok.length, refused.length], [1, 1], `round ${round} on ${backend}`);
      assert.equal((await listUsers(app, acc.id)).length, 1);
    }
  });
});
