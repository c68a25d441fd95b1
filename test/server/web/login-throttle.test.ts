// Login throttling under concurrency, against a real server on loopback: a burst of wrong
// passwords sent at once gets exactly the allowed number of password checks (401), the rest 429;
// the limit is per (e-mail, address) pair, so a stranger cannot lock the real user out.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  MAX_FAILURES_PER_IP,
  MAX_FAILURES_PER_PAIR,
  throttleAddress,
} from '../../../src/domain/accounts/login-throttle.ts';
import { WebClient } from './client.ts';
import { PASSWORD, seedAccount, startTestServer, type TestServer } from './helpers.ts';

const BURST = 50;

let server: TestServer;
const clients: WebClient[] = [];

function client(localAddress?: string): WebClient {
  const c = new WebClient(server.url, {}, { localAddress });
  clients.push(c);
  return c;
}

/** BURST wrong logins sent at once on one login form (one CSRF cookie); returns the statuses. */
async function burst(c: WebClient, emails: (i: number) => string): Promise<number[]> {
  const csrf_token = await c.csrf('/login');
  const answers = await Promise.all(
    Array.from({ length: BURST }, async (_, i) => {
      const r = await c.post('/login', { csrf_token, email: emails(i), senha: `senha-errada-${i}` });
      const body = await r.text();
      if (r.status === 429) {
        assert.match(body, /<html lang="pt-BR">/);
        assert.match(body, /Muitas tentativas de entrada sem sucesso/);
        assert.match(r.headers.get('retry-after') ?? '', /^\d+$/);
      }
      return r.status;
    }),
  );
  return answers;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

before(async () => {
  server = await startTestServer();
  const acme = await seedAccount(server.app, 'Acme', 'Ouro');
  await acme.user('vitima@acme.com.br', 'billing_admin');
  await acme.user('outra@acme.com.br', 'member');
});

after(async () => {
  for (const c of clients) await c.close();
  await server?.close();
});

describe('login throttle under concurrency', () => {
  test(`${BURST} wrong passwords for one e-mail at once: ${MAX_FAILURES_PER_PAIR} checked (401), the rest 429; the user still gets in from another address`, async () => {
    const attacker = client('127.0.0.1');
    const statuses = await burst(attacker, () => 'vitima@acme.com.br');
    assert.equal(count(statuses, 401), MAX_FAILURES_PER_PAIR, `statuses: ${statuses.join(',')}`);
    assert.equal(count(statuses, 429), BURST - MAX_FAILURES_PER_PAIR);
    // Only the checked attempts were recorded: the refused ones do not extend the lock.
    const rows = server.app.sqlite
      .prepare('SELECT count(*) AS n FROM login_attempts WHERE email = ?')
      .get('vitima@acme.com.br') as { n: number };
    assert.equal(rows.n, MAX_FAILURES_PER_PAIR);

    // The attacker's address is locked for this e-mail, even with the right password...
    assert.equal((await attacker.login('vitima@acme.com.br', PASSWORD)).status, 429);
    // ...while the real user, from another address, logs in.
    const user = client('127.0.0.2');
    const r = await user.login('vitima@acme.com.br', PASSWORD);
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), '/api-de-cnpj');
  });

  test(`${BURST} wrong logins over many e-mails from one address at once: ${MAX_FAILURES_PER_IP} checked, the rest 429`, async () => {
    const c = client('127.0.0.3');
    const statuses = await burst(c, (i) => `ninguem${i}@exemplo.com.br`);
    assert.equal(count(statuses, 401), MAX_FAILURES_PER_IP, `statuses: ${statuses.join(',')}`);
    assert.equal(count(statuses, 429), BURST - MAX_FAILURES_PER_IP);
    // The address is blocked for every e-mail; other addresses are not.
    assert.equal((await c.login('outra@acme.com.br', PASSWORD)).status, 429);
    assert.equal((await client('127.0.0.4').login('outra@acme.com.br', PASSWORD)).status, 303);
  });

  test('a success clears the pair: the user who mistyped a few times is not left near the limit', async () => {
    const c = client('127.0.0.5');
    for (let i = 0; i < MAX_FAILURES_PER_PAIR - 1; i++)
      assert.equal((await c.login('outra@acme.com.br', 'errada-' + i)).status, 401);
    assert.equal((await c.login('outra@acme.com.br', PASSWORD)).status, 303);
    const left = server.app.sqlite
      .prepare('SELECT count(*) AS n FROM login_attempts WHERE email = ? AND ip = ?')
      .get('outra@acme.com.br', '127.0.0.5') as { n: number };
    assert.equal(left.n, 0);
  });
});

test('addresses are counted as IPv4, or IPv6 by their /64', () => {
  assert.equal(throttleAddress('203.0.113.7'), '203.0.113.7');
  assert.equal(throttleAddress('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(throttleAddress('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(throttleAddress('2001:0db8:0001:0002::ffff'), '2001:db8:1:2::/64');
  assert.equal(throttleAddress('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(throttleAddress('::1'), '0:0:0:0::/64');
  assert.equal(throttleAddress('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(throttleAddress('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  assert.equal(throttleAddress('desconhecido'), 'desconhecido');
});
