// Behind a reverse proxy: what X-Forwarded-For / X-Forwarded-Proto may change (only with
// trustProxy), seen through a real server on loopback: the login throttle, the request log,
// Secure cookies, HSTS, and the public URL in /openapi.json, /docs and the web app.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { MAX_FAILURES_PER_IP } from '../../../src/domain/accounts/login-throttle.ts';
import { WebClient } from './client.ts';
import { PASSWORD, seedAccount, startTestServer, type TestServer } from './helpers.ts';

const PUBLIC = 'https://cnpj.example.com';
const CURL = `${PUBLIC}/api/v1/brazilian_companies/33683111000280/company`;

interface Proxied {
  server: TestServer;
  lines: string[];
}

async function proxied(opts: { publicUrl?: string; trustProxy?: boolean }): Promise<Proxied> {
  const lines: string[] = [];
  const server = await startTestServer({ ...opts, log: (l) => lines.push(l) });
  const acme = await seedAccount(server.app, 'Acme', 'Ouro');
  await acme.user('admin@acme.com.br', 'billing_admin');
  return { server, lines };
}

/** Logs in with a wrong password from behind `headers`, for `MAX_FAILURES_PER_IP` different e-mails. */
async function failLogins(url: string, headers: (i: number) => Record<string, string>): Promise<void> {
  for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
    const r = await new WebClient(url, headers(i)).login(`ninguem${i}@exemplo.com.br`, 'senha-errada-123');
    assert.equal(r.status, 401, `failure ${i}`);
  }
}

const loginAs = (url: string, headers: Record<string, string>) =>
  new WebClient(url, headers).login('admin@acme.com.br', PASSWORD);

const sessionCookie = (r: Response) => r.headers.getSetCookie().find((c) => c.startsWith('cnpj_sessao='));

/** The log line of the one request to `path` (logged once the response closed). */
async function logLine(lines: string[], path: string): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = lines.filter((l) => l.includes(` GET ${path} `));
    if (found.length > 0) {
      assert.equal(found.length, 1, found.join('\n'));
      return found[0]!;
    }
    assert.ok(Date.now() < deadline, `no log line for ${path}:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function probe(
  p: Proxied,
  path: string,
  headers: Record<string, string>,
): Promise<{ res: Response; line: string }> {
  const res = await fetch(p.server.url + path, { headers });
  await res.arrayBuffer();
  return { res, line: await logLine(p.lines, path) };
}

describe('without --trust-proxy (the default), forged X-Forwarded-* headers change nothing', () => {
  let p: Proxied;
  before(async () => (p = await proxied({ publicUrl: PUBLIC })));
  after(() => p?.server.close());

  test('the log and the login throttle see the socket address; no HSTS, no Secure cookie, even with an https public URL', async () => {
    const forged = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https' };
    const { res, line } = await probe(p, '/healthz?untrusted', forged);
    assert.equal(res.status, 200);
    assert.match(line, /^\S+Z 127\.0\.0\.1 GET \/healthz\?untrusted 200 /);
    assert.equal(res.headers.get('strict-transport-security'), null);

    const login = await loginAs(p.server.url, forged);
    assert.equal(login.status, 303);
    assert.doesNotMatch(sessionCookie(login)!, /; Secure/);
    assert.equal(login.headers.get('strict-transport-security'), null);

    // A new X-Forwarded-For per attempt does not escape the address limit.
    await failLogins(p.server.url, (i) => ({ 'x-forwarded-for': `198.51.100.${i}` }));
    assert.equal((await loginAs(p.server.url, { 'x-forwarded-for': '192.0.2.1' })).status, 429);
  });

  test('/openapi.json and /docs show the public URL', async () => {
    const spec = (await (await fetch(`${p.server.url}/openapi.json`)).json()) as { servers: { url: string }[] };
    assert.deepEqual(spec.servers, [{ url: PUBLIC }]);
    const docs = (await (await fetch(`${p.server.url}/docs`)).text()).replaceAll('<wbr>', ''); // <wbr>: break hints, no text
    assert.ok(docs.includes(CURL), 'docs curl example');
    assert.ok(!docs.includes(p.server.url), 'no listening address in the docs');
  });
});

describe('with --trust-proxy', () => {
  let p: Proxied;
  before(async () => (p = await proxied({ trustProxy: true })));
  after(() => p?.server.close());

  test('the client is the right-most X-Forwarded-For address (the left part is the client’s word)', async () => {
    const cases: [string, string][] = [
      ['203.0.113.7', '203.0.113.7'],
      ['6.6.6.6, 203.0.113.7', '203.0.113.7'],
      // Our own hops on this host (Caddy in front of nginx) are skipped.
      ['6.6.6.6, 2001:db8::7, 127.0.0.1', '2001:db8::7'],
      // Not an address: nothing left of it is believed; the socket's peer then.
      ['203.0.113.7, garbage', '127.0.0.1'],
    ];
    for (const [i, [xff, client]] of cases.entries()) {
      const { line } = await probe(p, `/healthz?xff${i}`, { 'x-forwarded-for': xff });
      assert.match(line, new RegExp(`^\\S+Z ${client.replace(/\./g, '\\.')} GET `), xff);
    }
    // Several header lines are one list, in order (node sends an array as one line each).
    const res = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.get(
        `${p.server.url}/healthz?two-lines`,
        { headers: { 'X-Forwarded-For': ['6.6.6.6', '203.0.113.9'] } },
        (r) => {
          r.resume();
          r.on('end', () => resolve(r.statusCode));
        },
      );
      req.on('error', reject);
    });
    assert.equal(res, 200);
    assert.match(await logLine(p.lines, '/healthz?two-lines'), /^\S+Z 203\.0\.113\.9 GET /);
  });

  test('the login throttle counts the proxy-given address, not the forged part', async () => {
    // Rotating the forged left part does not escape the address limit ...
    await failLogins(p.server.url, (i) => ({ 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` }));
    assert.equal((await loginAs(p.server.url, { 'x-forwarded-for': '192.0.2.1, 203.0.113.7' })).status, 429);
    assert.equal((await loginAs(p.server.url, { 'x-forwarded-for': '192.0.2.1, 203.0.113.7, 127.0.0.1' })).status, 429);
    // ... and forging the blocked address on the left does not block another client.
    assert.equal((await loginAs(p.server.url, { 'x-forwarded-for': '203.0.113.7, 203.0.113.8' })).status, 303);
  });

  test('https (Secure cookie, HSTS) only when the proxy’s X-Forwarded-Proto says so', async () => {
    const cases: [Record<string, string>, boolean][] = [
      [{}, false],
      [{ 'x-forwarded-proto': 'http' }, false],
      [{ 'x-forwarded-proto': 'https, http' }, false],
      [{ 'x-forwarded-proto': 'https' }, true],
      [{ 'x-forwarded-proto': 'http, HTTPS' }, true],
    ];
    for (const [headers, https] of cases) {
      const what = JSON.stringify(headers);
      const login = await loginAs(p.server.url, { 'x-forwarded-for': '203.0.113.20', ...headers });
      assert.equal(login.status, 303, what);
      assert.equal(/; Secure/.test(sessionCookie(login)!), https, `Secure cookie ${what}`);
      for (const r of [login, await fetch(`${p.server.url}/healthz`, { headers })]) {
        assert.equal(r.headers.get('strict-transport-security'), https ? 'max-age=31536000' : null, `HSTS ${what}`);
      }
    }
  });
});

describe('with --trust-proxy and an https --public-url', () => {
  let p: Proxied;
  before(async () => (p = await proxied({ trustProxy: true, publicUrl: PUBLIC })));
  after(() => p?.server.close());

  test('every answer is https: Secure cookies and HSTS on pages and API answers', async () => {
    const login = await new WebClient(p.server.url).login('admin@acme.com.br', PASSWORD);
    assert.equal(login.status, 303);
    assert.match(sessionCookie(login)!, /; Secure/);
    assert.equal(login.headers.get('strict-transport-security'), 'max-age=31536000');
    for (const path of [
      '/healthz',
      '/docs',
      '/openapi.json',
      '/api/v1/brazilian_companies/33683111000280/company',
      '/nada',
    ]) {
      const r = await fetch(p.server.url + path);
      assert.equal(r.headers.get('strict-transport-security'), 'max-age=31536000', path);
    }
  });

  test('the web app’s curl example shows the public URL', async () => {
    const c = new WebClient(p.server.url);
    assert.equal((await c.login('admin@acme.com.br', PASSWORD)).status, 303);
    const html = (await (await c.get('/api-de-cnpj')).text()).replaceAll('<wbr>', '');
    assert.ok(html.includes(`curl -H &quot;Authorization: Bearer SEU_TOKEN&quot; ${CURL}`), 'curl example');
    assert.ok(html.includes(`<code>${PUBLIC}</code>`), 'base URL');
    assert.ok(!html.includes(p.server.url), 'no listening address on the page');
  });
});
