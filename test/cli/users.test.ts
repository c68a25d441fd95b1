// `users set-password` and `users remove` through the real program, against a running server:
// a locked-out user gets back in, a departed one is gone, and their web sessions end at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sqliteMeter } from '../domain/metering/helpers/api-setup.ts';
import { createToken } from '../../src/domain/accounts/tokens.ts';
import { listUsers } from '../../src/domain/accounts/users.ts';
import { MAX_FAILURES_PER_PAIR } from '../../src/domain/accounts/login-throttle.ts';
import { runCli } from '../helpers/cli.ts';
import { WebClient } from '../server/web/client.ts';
import { PASSWORD, seedAccount, startTestServer } from '../server/web/helpers.ts';
import { sqliteStore } from '../helpers/sqlite-store.ts';
import { freshDatabaseUrl, tempDataDir } from '../helpers/app-backends.ts';
import { startServer } from '../../src/server/server.ts';

const cli = (dataDir: string, args: string[], input = '') => runCli(['--data-dir', dataDir, ...args], input);

function fails(r: { code: number | null; err: string }, re: RegExp) {
  assert.equal(r.code, 1, r.err);
  assert.equal(r.err.trim().split('\n').length, 1, `one line on stderr: ${r.err}`);
  assert.match(r.err, re);
}

test('users set-password and users remove, while the server runs', async () => {
  const s = await startTestServer();
  try {
    const { account, user } = await seedAccount(s.app, 'Acme');
    await user('ana@acme.com.br', 'billing_admin');
    await user('bia@acme.com.br', 'member');
    const token = (await createToken(sqliteStore(s.app), { accountId: account.id, name: 'prod', createdBy: 'cli' }))
      .token;
    const signedIn = async (email: string, password = PASSWORD) => {
      const c = new WebClient(s.url);
      assert.equal((await c.login(email, password)).status, 303, email);
      return c;
    };
    const isSignedIn = async (c: WebClient) => (await c.get('/api-de-cnpj')).status === 200;

    // Ana is signed in on one browser; someone guessing her password locks her e-mail out.
    const anaBrowser = await signedIn('ana@acme.com.br');
    const guesser = new WebClient(s.url);
    for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++) await guesser.login('ana@acme.com.br', `wrong-guess-${i}`);
    assert.equal((await new WebClient(s.url).login('ana@acme.com.br', PASSWORD)).status, 429);

    // Bad inputs first: nothing changes.
    fails(
      await cli(s.dataDir, ['users', 'set-password', '--email', 'nobody@acme.com.br'], 'a-good-long-password\n'),
      /^error: No user with the e-mail "nobody@acme.com.br"\.$/m,
    );
    fails(
      await cli(s.dataDir, ['users', 'set-password', '--email', 'ana@acme.com.br'], 'short\n'),
      /at least 10 characters/,
    );
    fails(
      await cli(s.dataDir, ['users', 'set-password', '--email', 'ana@acme.com.br'], ''),
      /No password given on stdin/,
    );
    fails(
      await cli(s.dataDir, ['users', 'set-password'], 'a-good-long-password\n'),
      /Missing required argument: email/,
    );
    assert.ok(await isSignedIn(anaBrowser));

    const r = await cli(s.dataDir, ['users', 'set-password', '--email', ' ANA@acme.com.br'], 'a new long password\n');
    assert.equal(r.code, 0, r.err);
    assert.equal(
      r.out,
      'password of ana@acme.com.br changed; 1 web session(s) ended, failed logins for the e-mail forgotten\n',
    );
    assert.equal(await isSignedIn(anaBrowser), false, 'the old session ended');
    assert.equal(
      (await new WebClient(s.url).login('ana@acme.com.br', PASSWORD)).status,
      401,
      'the old password is refused',
    );
    const anaAgain = await signedIn('ana@acme.com.br', 'a new long password');

    // Remove: the last billing_admin is kept unless --force; a member goes at once.
    const biaBrowser = await signedIn('bia@acme.com.br');
    fails(
      await cli(s.dataDir, ['users', 'remove', '--email', 'ana@acme.com.br']),
      /ana@acme\.com\.br is the last billing_admin of account "Acme".*--force/,
    );
    assert.ok(await isSignedIn(anaAgain));
    fails(await cli(s.dataDir, ['users', 'remove', '--email', 'nobody@acme.com.br']), /No user with the e-mail/);
    let rm = await cli(s.dataDir, ['users', 'remove', '--email', 'bia@acme.com.br']);
    assert.equal(rm.code, 0, rm.err);
    assert.equal(
      rm.out,
      "user bia@acme.com.br removed (1 web session(s) ended); the account's API tokens are unaffected\n",
    );
    assert.equal(await isSignedIn(biaBrowser), false);
    rm = await cli(s.dataDir, ['users', 'remove', '--email', 'ana@acme.com.br', '--force']);
    assert.equal(rm.code, 0, rm.err);
    assert.equal(await isSignedIn(anaAgain), false);
    assert.deepEqual(await listUsers(sqliteStore(s.app), account.id), []);
    const auth = await sqliteMeter(s.app.sqlite).authenticate(token);
    assert.ok(auth.ok, 'the API token made before still works');
  } finally {
    await s.close();
  }
});

test('fleet: the CLI on one node manages the users, tokens and plans a server on another node serves (PostgreSQL)', async () => {
  const url = await freshDatabaseUrl();
  // Each node has its own data dir; the app state is the shared database.
  const server = await startServer({
    dataDir: tempDataDir(),
    host: '127.0.0.1',
    port: 0,
    log: () => {},
    databaseUrl: url,
  });
  const cliDir = tempDataDir();
  const pgCli = (args: string[], input = '') => runCli(['--data-dir', cliDir, '--database-url', url, ...args], input);
  try {
    let r = await pgCli(['accounts', 'create', '--name', 'Acme', '--plan', 'Ouro']);
    assert.equal(r.code, 0, r.err);
    for (const [email, role] of [
      ['ana@acme.com.br', 'billing_admin'],
      ['bia@acme.com.br', 'member'],
    ]) {
      r = await pgCli(['users', 'create', '--account', 'acme', '--email', email, '--role', role], `${PASSWORD}\n`);
      assert.equal(r.code, 0, r.err);
    }
    r = await pgCli(['users', 'list', '--account', 'ACME', '--json']);
    assert.deepEqual(
      (JSON.parse(r.out) as { email: string; role: string }[]).map((u) => [u.email, u.role]),
      [
        ['ana@acme.com.br', 'billing_admin'],
        ['bia@acme.com.br', 'member'],
      ],
    );
    const ana = new WebClient(server.url);
    assert.equal((await ana.login('ana@acme.com.br', PASSWORD)).status, 303);
    assert.equal((await ana.get('/api-de-cnpj')).status, 200);

    r = await pgCli(['users', 'set-password', '--email', 'ana@acme.com.br'], 'a new long password\n');
    assert.match(r.out, /1 web session\(s\) ended/);
    assert.notEqual((await ana.get('/api-de-cnpj')).status, 200, 'the session ended on the server too');
    fails(await pgCli(['users', 'remove', '--email', 'ana@acme.com.br']), /last billing_admin of account "Acme"/);
    assert.equal((await pgCli(['users', 'remove', '--email', 'bia@acme.com.br'])).code, 0);

    r = await pgCli(['tokens', 'create', '--account', 'Acme', '--name', 'prod', '--json']);
    const { id } = JSON.parse(r.out) as { id: number };
    r = await pgCli(['tokens', 'list', '--account', 'Acme', '--json']);
    assert.deepEqual(
      (JSON.parse(r.out) as { id: number; state: string }[]).map((t) => [t.id, t.state]),
      [[id, 'active']],
    );
    assert.equal((await pgCli(['plans', 'set', 'Ouro', '--quota', '7'])).code, 0);
    assert.match((await pgCli(['plans', 'list'])).out, /Ouro\s+7\s+yes/);
    assert.match((await pgCli(['accounts', 'list'])).out, /Acme\s+Ouro\s+active\s+0\/7/);
    // The signed-in page shows the shared state: the new password works on the server.
    const again = new WebClient(server.url);
    assert.equal((await again.login('ana@acme.com.br', 'a new long password')).status, 303);
    assert.match(await (await again.get('/api-de-cnpj/tokens')).text(), /prod/);
  } finally {
    await server.close();
  }
});
