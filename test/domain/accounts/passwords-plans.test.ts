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
import { getPlan, listPlans, setPlan } from '../../../src/domain/accounts/plans.ts';
import { createUser, getUserByEmail, verifyLogin } from '../../../src/domain/accounts/users.ts';
import { tempAppDb } from './helpers/setup.ts';

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

test('plans are seeded, listed in order and editable; new plans need a quota', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    assert.deepEqual(
      listPlans(app.sqlite).map((p) => [p.name, p.monthlyQuota, p.apiIncluded]),
      [
        ['Bronze', 5000, true],
        ['Prata', 12500, true],
        ['Ouro', 50000, true],
        ['Diamante', 200000, true],
        ['Black', 500000, true],
      ],
    );
    assert.equal(getPlan(app.sqlite, 'diamante')?.name, 'Diamante');
    assert.equal(setPlan(app.sqlite, 'bronze', { apiIncluded: false }).apiIncluded, false);
    assert.equal(setPlan(app.sqlite, 'Ouro', { monthlyQuota: 60000 }).monthlyQuota, 60000);
    assert.throws(() => setPlan(app.sqlite, 'Enterprise', { apiIncluded: true }), AccountsError);
    assert.throws(() => setPlan(app.sqlite, 'Ouro', { monthlyQuota: -1 }), AccountsError);
    assert.equal(setPlan(app.sqlite, 'Enterprise', { monthlyQuota: 1_000_000 }).name, 'Enterprise');
    assert.equal(listPlans(app.sqlite).at(-1)?.name, 'Enterprise');
  } finally {
    await cleanup();
  }
});

test('users: lowercased unique e-mail, role check, login verification', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    const acc = createAccount(app.sqlite, { name: 'Acme', plan: 'Ouro' });
    const u = await createUser(app.sqlite, {
      accountId: acc.id,
      email: ' Ana@Acme.COM.br ',
      password: 'senha-muito-boa',
      role: 'billing_admin',
    });
    assert.equal(u.email, 'ana@acme.com.br');
    assert.equal(getUserByEmail(app.sqlite, 'ANA@acme.com.br')?.id, u.id);
    await assert.rejects(
      createUser(app.sqlite, {
        accountId: acc.id,
        email: 'ana@acme.com.br',
        password: 'outra-senha-boa',
        role: 'member',
      }),
      /already exists/,
    );
    await assert.rejects(
      createUser(app.sqlite, { accountId: acc.id, email: 'not-an-email', password: 'outra-senha-boa', role: 'member' }),
      AccountsError,
    );
    await assert.rejects(
      createUser(app.sqlite, { accountId: acc.id, email: 'b@acme.com.br', password: 'curta', role: 'member' }),
      /at least 10 characters/,
    );
    await assert.rejects(
      createUser(app.sqlite, {
        accountId: acc.id,
        email: 'b@acme.com.br',
        password: 'outra-senha-boa',
        role: 'root' as 'member',
      }),
      AccountsError,
    );
    assert.equal((await verifyLogin(app.sqlite, 'ANA@acme.com.br', 'senha-muito-boa'))?.id, u.id);
    assert.equal(await verifyLogin(app.sqlite, 'ana@acme.com.br', 'senha-errada!!'), null);
    assert.equal(await verifyLogin(app.sqlite, 'nobody@acme.com.br', 'senha-muito-boa'), null);
  } finally {
    await cleanup();
  }
});
