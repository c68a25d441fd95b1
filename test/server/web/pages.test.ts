// Web pages over plain HTTP: headers, cookies, sessions, CSRF, throttling, roles, suspension.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { reactivateAccount, suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { createToken } from '../../../src/domain/accounts/tokens.ts';
import { spMonth } from '../../../src/domain/metering/time.ts';
import { ERRORS } from '../../../src/domain/api-errors.ts';
import { WebClient } from './client.ts';
import { PASSWORD, seedAccount, startTestServer, type TestServer } from './helpers.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

let server: TestServer;
let clock = Date.parse('2026-11-20T15:00:00Z');
const now = () => new Date(clock);
let acmeId: number;
let otherTokenId: number;

const client = (headers?: Record<string, string>) => new WebClient(server.url, headers);
async function loggedIn(email: string, headers?: Record<string, string>): Promise<WebClient> {
  const c = client(headers);
  const r = await c.login(email, PASSWORD);
  assert.equal(r.status, 303, `login of ${email}`);
  return c;
}

before(async () => {
  server = await startTestServer({ now });
  const acme = await seedAccount(server.app, 'Acme', 'Ouro');
  acmeId = acme.account.id;
  await acme.user('admin@acme.com.br', 'billing_admin');
  await acme.user('membro@acme.com.br', 'member');
  const other = await seedAccount(server.app, 'Outra', 'Bronze');
  await other.user('admin@outra.com.br', 'billing_admin');
  otherTokenId = (
    await createToken(sqliteStore(server.app), { accountId: other.account.id, name: 'da outra', createdBy: 'cli' }, now)
  ).id;
  const suspended = await seedAccount(server.app, 'Caloteira', 'Prata');
  await suspended.user('admin@caloteira.com.br', 'billing_admin');
  await createToken(
    sqliteStore(server.app),
    { accountId: suspended.account.id, name: 'antigo', createdBy: 'cli' },
    now,
  );
  await suspendAccount(sqliteStore(server.app), 'Caloteira', now);
  server.app.sqlite
    .prepare('INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, ?)')
    .run(acmeId, spMonth(now()), 1234);
});

after(async () => {
  await server?.close();
});

describe('web pages', () => {
  test('every page and asset carries the security headers; token pages are no-store', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const home = await (await c.get('/api-de-cnpj')).text();
    const css = /href="(\/static\/style-[0-9a-f]+\.css)"/.exec(home)![1]!;
    const js = /src="(\/static\/copy-[0-9a-f]+\.js)"/.exec(home)![1]!;
    for (const path of ['/login', '/api-de-cnpj', '/api-de-cnpj/tokens', css, js]) {
      const r = path === '/login' ? await client().get(path) : await c.get(path);
      assert.equal(r.status, 200, path);
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, path);
      assert.equal(r.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
      assert.match(r.headers.get('referrer-policy') ?? '', /^(no-referrer|same-origin)$/, path);
      const body = await r.text();
      if (path.startsWith('/static/')) {
        assert.match(r.headers.get('cache-control') ?? '', /immutable/);
        assert.match(r.headers.get('content-type') ?? '', path.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      } else {
        // Nothing the CSP would block: no inline script, no style attribute.
        assert.doesNotMatch(body, /<script(?![^>]*\ssrc=)[^>]*>/, path);
        assert.doesNotMatch(body, /\sstyle=/, path);
        assert.match(body, /<html lang="pt-BR">/);
      }
    }
    assert.equal((await c.get('/api-de-cnpj/tokens')).headers.get('cache-control'), 'no-store');
  });

  test('session cookie: random, HttpOnly, SameSite=Lax, Path=/, expiring; stored hashed', async () => {
    const plain = client();
    const r = await plain.login('admin@acme.com.br', PASSWORD);
    const set = r.headers.getSetCookie().find((s) => s.startsWith('cnpj_sessao='))!;
    assert.match(set, /; HttpOnly/);
    assert.match(set, /; SameSite=Lax/);
    assert.match(set, /; Path=\//);
    assert.match(set, /; Max-Age=\d+/);
    assert.doesNotMatch(set, /; Secure/);
    const cookie = plain.cookies.get('cnpj_sessao')!;
    assert.match(cookie, /^[A-Za-z0-9_-]{43}$/);
    const hash = crypto.createHash('sha256').update(cookie).digest('hex');
    const rows = server.app.sqlite.prepare('SELECT id_hash FROM sessions').all() as { id_hash: string }[];
    assert.ok(rows.some((x) => x.id_hash === hash));
    assert.ok(!rows.some((x) => x.id_hash === cookie));

    // Secure only behind a trusted proxy that says https (test/web/proxy.test.ts).
  });

  test('without a session: pages redirect to /login, posts are refused with 403', async () => {
    const c = client();
    for (const path of ['/', '/app', '/api-de-cnpj', '/api-de-cnpj/tokens']) {
      const r = await c.get(path);
      assert.equal(r.status, 303, path);
      assert.equal(r.headers.get('location'), '/login', path);
    }
    assert.equal((await c.post('/api-de-cnpj/tokens', { nome: 'x', expiracao: '30d' })).status, 403);
    // A forged cookie is no session either.
    c.cookies.set('cnpj_sessao', crypto.randomBytes(32).toString('base64url'));
    assert.equal((await c.get('/api-de-cnpj')).headers.get('location'), '/login');
  });

  test('an oversized form is refused with 413, not read into memory', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const csrf_token = await c.csrf('/api-de-cnpj/tokens');
    const r = await c.post('/api-de-cnpj/tokens', { csrf_token, nome: 'x'.repeat(40_000), expiracao: '30d' });
    assert.equal(r.status, 413);
  });

  test('after a 413 the connection is closed: the rest of the body is neither waited for nor read', async () => {
    // Before: the answer went out and the connection stayed until node's requestTimeout (300 s),
    // reading whatever the client still sent. Declared up front, and streamed (chunked).
    const { port } = new URL(server.url);
    const heads = [
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000000\r\n\r\nemail=a',
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n' +
        `8000\r\n${'a'.repeat(0x8000)}\r\n`,
    ];
    for (const head of heads) {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head));
      let answer = '';
      socket.on('data', (d) => (answer += d));
      const closed = await new Promise<boolean>((resolve) => {
        socket.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 3000);
      });
      socket.destroy();
      assert.match(answer, /^HTTP\/1\.1 413 /, head.slice(0, 80));
      assert.match(answer, /\r\nConnection: close\r\n/i);
      assert.ok(closed, 'the server closed the connection');
    }
  });

  test('a client that hangs up halfway through its form: no error and no stack trace in the log', async () => {
    const lines: string[] = [];
    const s = await startTestServer({ log: (l) => lines.push(l) });
    try {
      const { port } = new URL(s.url);
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.write(
          'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nemail=a',
        ),
      );
      await new Promise((r) => setTimeout(r, 100));
      socket.destroy();
      for (let i = 0; i < 40 && !lines.some((l) => l.includes(' POST /login ')); i++)
        await new Promise((r) => setTimeout(r, 25));
      assert.ok(
        lines.some((l) => / POST \/login \d+-aborted /.test(l)),
        `the request line says aborted: ${lines.join('\n')}`,
      );
      assert.ok(!lines.some((l) => l.startsWith('error:')), lines.join('\n'));
      assert.equal((await fetch(`${s.url}/login`)).status, 200, 'still serving');
    } finally {
      await s.close();
    }
  });

  test('the login form is CSRF-protected too (double-submit cookie)', async () => {
    const c = client();
    const r = await c.post('/login', { email: 'admin@acme.com.br', senha: PASSWORD });
    assert.equal(r.status, 403);
    await c.csrf('/login');
    const r2 = await c.post('/login', { email: 'admin@acme.com.br', senha: PASSWORD, csrf_token: 'errado' });
    assert.equal(r2.status, 403);
    assert.equal(c.cookies.has('cnpj_sessao'), false);
  });

  test('login attempts are limited per (e-mail, address) and per address, with a clear message', async () => {
    const email = 'membro@acme.com.br';
    // All requests come from 127.0.0.1 (X-Forwarded-For is not trusted by default), so the
    // per-pair limit (5) trips long before the per-address one (20).
    const c = client();
    for (let i = 0; i < 5; i++) {
      const r = await c.login(email, 'senha-errada-' + i);
      assert.equal(r.status, 401);
      assert.match(await r.text(), /E-mail ou senha inválidos/);
    }
    const blocked = await c.login(email, PASSWORD);
    assert.equal(blocked.status, 429);
    assert.match(await blocked.text(), /Muitas tentativas de entrada sem sucesso.*aguarde 15 minutos/s);
    // Other e-mails from the same address still get in (the address limit is higher).
    await loggedIn('admin@outra.com.br');
    // After the window the account can log in again.
    clock += 16 * 60_000;
    await loggedIn(email);

    // Per address: 20 failures over many e-mails block the address, whatever the e-mail.
    for (let i = 0; i < 20; i++) await c.login(`ninguem${i}@exemplo.com.br`, 'x'.repeat(12));
    const byIp = await c.login('admin@outra.com.br', PASSWORD);
    assert.equal(byIp.status, 429);
    clock += 16 * 60_000;
    await loggedIn('admin@outra.com.br');
  });

  test('home shows plan and pt-BR usage against the quota, and the curl example', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const html = await (await c.get('/api-de-cnpj')).text();
    assert.match(html, /<h1>API de CNPJ<\/h1>/);
    assert.match(html, /1\.234 <small>de 50\.000 chamadas<\/small>/);
    // <wbr>: the example may wrap after a "/" on a phone, never inside the CNPJ.
    assert.ok(
      html
        .replaceAll('<wbr>', '')
        .includes(
          `curl -H &quot;Authorization: Bearer SEU_TOKEN&quot; ${server.url}/api/v1/brazilian_companies/33683111000280/company`,
        ),
    );
    assert.match(html, /Gerenciar Tokens da API/);
    // Drawn for wide and for narrow screens; the stylesheet shows one.
    assert.match(html, /<svg class="chart chart-wide"[^>]*role="img"/);
    assert.match(html, /<svg class="chart chart-narrow"[^>]*role="img"/);
    // Today is the 20th: the days so far are listed, the ten still to come are not (not even as 0).
    const table = /<tbody>(.*?)<\/tbody>/s.exec(html.slice(html.indexOf('chart-figure')))![1]!;
    assert.equal(table.match(/<tr>/g)?.length, 20);
    assert.match(table, /20\/11/);
    assert.doesNotMatch(html, /2[1-9]\/11|30\/11/);
    assert.equal(html.match(/<rect class="bar/g)?.length, 2 * 20);
  });

  test('not found: browsers get a Portuguese page in the layout, API clients and /api/ paths JSON', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    for (const path of ['/nada', '/api-de-cnpj/nada', '/docs/x', '/favicon.png']) {
      const r = await client(html).get(path);
      assert.equal(r.status, 404, path);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/, path);
      assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      const body = await r.text();
      assert.match(body, /<html lang="pt-BR">/);
      assert.match(body, /<h1 id="erro-titulo">Página não encontrada<\/h1>/);
      assert.match(body, /href="\/login">Ir para a página de entrada/);
    }
    // Logged in: the page has the user's header and leads back to the area.
    const c = await loggedIn('admin@acme.com.br', html);
    const mine = await (await c.get('/nada')).text();
    assert.match(mine, /Voltar para a API de CNPJ/);
    assert.match(mine, /admin@acme\.com\.br/);
    for (const [path, headers] of [
      ['/api/v1/nada', html],
      ['/api', html],
      ['/nada', {}],
      ['/nada', { accept: 'application/json' }],
      ['/nada', { accept: '*/*' }],
    ] as const) {
      const r = await client(headers).get(path);
      assert.equal(r.status, 404, path);
      const { error, message } = ERRORS.route_not_found;
      assert.deepEqual(await r.json(), { error, message }, `${path} ${JSON.stringify(headers)}`);
    }
  });

  test('a plan without the API: the home page quotes what the API answers', async () => {
    await setPlan(sqliteStore(server.app), 'Sem API', { monthlyQuota: 100, apiIncluded: false });
    const semApi = await seedAccount(server.app, 'SemApi', 'Sem API');
    await semApi.user('admin@semapi.com.br', 'billing_admin');
    const home = await (await (await loggedIn('admin@semapi.com.br')).get('/api-de-cnpj')).text();
    const { status, error } = ERRORS.plan_without_api;
    assert.ok(
      home.includes(
        `A API responde <code>${status} ${error}</code>: “O plano Sem API não inclui acesso à API de CNPJ.” Fale com o suporte`,
      ),
      home,
    );
    assert.doesNotMatch(
      await (await (await loggedIn('admin@acme.com.br')).get('/api-de-cnpj')).text(),
      /plan_without_api/,
    );
  });

  test('favicon: linked from every page, served as SVG, also at /favicon.ico', async () => {
    const page = await (await client().get('/login')).text();
    const href = /<link rel="icon" href="(\/static\/favicon-[0-9a-f]+\.svg)" type="image\/svg\+xml">/.exec(page)?.[1];
    assert.ok(href);
    for (const path of [href, '/favicon.ico']) {
      const r = await client().get(path);
      assert.equal(r.status, 200, path);
      assert.equal(r.headers.get('content-type'), 'image/svg+xml', path);
      assert.match(await r.text(), /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
  });

  test('a new token is shown once, is sealed in app.db meanwhile, and the name is escaped', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const csrf_token = await c.csrf('/api-de-cnpj/tokens');
    const r = await c.post('/api-de-cnpj/tokens', {
      csrf_token,
      nome: '<script>alert(1)</script>',
      expiracao: 'never',
    });
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), '/api-de-cnpj/tokens');
    const sealed = (
      server.app.sqlite.prepare('SELECT flash FROM sessions WHERE flash IS NOT NULL').all() as { flash: string }[]
    ).map((x) => x.flash);
    assert.equal(sealed.length, 1);
    assert.doesNotMatch(sealed[0]!, /cnpj_/);
    const first = await (await c.get('/api-de-cnpj/tokens')).text();
    const token = /id="novo-token">([^<]+)</.exec(first)![1]!;
    assert.match(token, /^cnpj_/);
    assert.ok(!first.includes('<script>alert(1)'));
    assert.ok(first.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    const second = await (await c.get('/api-de-cnpj/tokens')).text();
    assert.ok(!second.includes(token));
    assert.ok(!second.includes('id="novo-token"'));
  });

  test('creation input is validated with a readable message', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const csrf_token = await c.csrf('/api-de-cnpj/tokens');
    const cases: [Record<string, string>, RegExp][] = [
      [{ nome: '', expiracao: '30d' }, /nome do token/],
      [{ nome: 'x', expiracao: '15d' }, /Escolha uma opção de expiração/],
      [{ nome: 'x', expiracao: 'data', data_expiracao: '' }, /Informe a data de expiração/],
      [{ nome: 'x', expiracao: 'data', data_expiracao: '01/01/2020' }, /A data de expiração já passou/],
      [{ nome: 'x', expiracao: 'data', data_expiracao: '01/01/2099' }, /longe demais \(máximo 3650 dias\)/],
      [
        { nome: 'x', expiracao: 'data', data_expiracao: '31/02/2027' },
        /Data de expiração inválida: “31\/02\/2027”. Use o formato dd\/mm\/aaaa/,
      ],
      [{ nome: 'x', expiracao: 'data', data_expiracao: '2027/01/31' }, /Data de expiração inválida/],
      [{ nome: 'x', expiracao: 'data', data_expiracao: 'amanhã' }, /Data de expiração inválida/],
    ];
    for (const [form, message] of cases) {
      const r = await c.post('/api-de-cnpj/tokens', { csrf_token, ...form });
      assert.equal(r.status, 422, JSON.stringify(form));
      const text = await r.text();
      assert.match(text, message);
      // The domain's English sentence is for the operator; the customer reads Portuguese only.
      assert.doesNotMatch(text, /must have|in the past|too far ahead|not recognised/, JSON.stringify(form));
    }
    // The field reads dd/mm/aaaa (d/m/aaaa too); an ISO date from an older page still works.
    for (const [typed, shown] of [
      ['31/01/2027', '31/01/2027'],
      ['1/3/2027', '01/03/2027'],
      ['2027-02-28', '28/02/2027'],
    ]) {
      const ok = await c.post('/api-de-cnpj/tokens', {
        csrf_token,
        nome: `com data ${typed}`,
        expiracao: 'data',
        data_expiracao: typed,
      });
      assert.equal(ok.status, 303, typed);
      const row = new RegExp(`com data ${typed}</th>[\\s\\S]*?</tr>`).exec(
        await (await c.get('/api-de-cnpj/tokens')).text(),
      );
      assert.match(row?.[0] ?? '', new RegExp(`>${shown}<`), typed);
    }
  });

  test('a token id in the path is decimal digits only: 0x1, 1e0, +1 name no token', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const csrf_token = await c.csrf('/api-de-cnpj/tokens');
    const id = (await createToken(sqliteStore(server.app), { accountId: acmeId, name: 'alvo', createdBy: 'cli' }, now))
      .id;
    // Before: Number() read these as the id, so /tokens/0x1/desativar switched token 1 off.
    for (const alias of [`0x${id.toString(16)}`, `${id}e0`, `+${id}`, ` ${id}`, `${id}.0`]) {
      const r = await c.post(`/api-de-cnpj/tokens/${encodeURIComponent(alias)}/desativar`, { csrf_token });
      assert.equal(r.status, 303, alias);
      assert.match(await (await c.get('/api-de-cnpj/tokens')).text(), /Token não encontrado/, alias);
      const row = server.app.sqlite.prepare('SELECT enabled FROM api_tokens WHERE id = ?').get(id) as {
        enabled: number;
      };
      assert.equal(row.enabled, 1, alias);
    }
  });

  test("another account's token cannot be touched", async () => {
    const c = await loggedIn('admin@acme.com.br');
    const csrf_token = await c.csrf('/api-de-cnpj/tokens');
    const r = await c.post(`/api-de-cnpj/tokens/${otherTokenId}/desativar`, { csrf_token });
    assert.equal(r.status, 303);
    assert.match(await (await c.get('/api-de-cnpj/tokens')).text(), /Token não encontrado/);
    const row = server.app.sqlite.prepare('SELECT enabled FROM api_tokens WHERE id = ?').get(otherTokenId) as {
      enabled: number;
    };
    assert.equal(row.enabled, 1);
  });

  test('a token invalidated by a past suspension cannot be activated: the customer reads why in Portuguese', async () => {
    const { account, user } = await seedAccount(server.app, 'Reativada', 'Ouro');
    await user('admin@reativada.com.br', 'billing_admin');
    const old = (
      await createToken(sqliteStore(server.app), { accountId: account.id, name: 'antigo', createdBy: 'cli' }, now)
    ).id;
    await suspendAccount(sqliteStore(server.app), 'Reativada', now);
    await reactivateAccount(sqliteStore(server.app), 'Reativada');
    const c = await loggedIn('admin@reativada.com.br');
    const csrf_token = await c.csrf('/api-de-cnpj/tokens');
    assert.equal((await c.post(`/api-de-cnpj/tokens/${old}/ativar`, { csrf_token })).status, 303);
    const page = await (await c.get('/api-de-cnpj/tokens')).text();
    assert.match(page, /Este token foi invalidado pela suspensão da conta e não pode ser reativado; crie um novo\./);
    assert.doesNotMatch(page, /cannot be activated/);
  });

  test('suspended account: tokens shown as invalidado, a notice, no creation (403)', async () => {
    const c = await loggedIn('admin@caloteira.com.br');
    const home = await (await c.get('/api-de-cnpj')).text();
    assert.match(home, /Conta suspensa/);
    // What the API answers, in the words of its error table.
    assert.ok(
      home.includes(`A API responde <code>403 account_suspended</code>: “${ERRORS.account_suspended.message}”`),
      home,
    );
    const page = await (await c.get('/api-de-cnpj/tokens')).text();
    assert.match(page, /Conta suspensa/);
    assert.match(page, /badge-invalidado">invalidado</);
    assert.doesNotMatch(page, /Criar token/);
    assert.doesNotMatch(page, />(Ativar|Desativar)</);
    const csrf_token = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!;
    const r = await c.post('/api-de-cnpj/tokens', { csrf_token, nome: 'novo', expiracao: '30d' });
    assert.equal(r.status, 403);
    assert.match(await r.text(), /suspensa/);
  });

  test('logout ends the session server-side; an expired session sends the user to /login', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const cookie = c.cookies.get('cnpj_sessao')!;
    const csrf_token = await c.csrf('/api-de-cnpj');
    const r = await c.post('/logout', { csrf_token });
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), '/login?saiu');
    assert.equal(c.cookies.has('cnpj_sessao'), false);
    const replay = client();
    replay.cookies.set('cnpj_sessao', cookie);
    assert.equal((await replay.get('/api-de-cnpj')).status, 303);

    const d = await loggedIn('admin@acme.com.br');
    assert.equal((await d.get('/api-de-cnpj')).status, 200);
    clock += 13 * 3600_000;
    const late = await d.get('/api-de-cnpj');
    assert.equal(late.status, 303);
    assert.equal(late.headers.get('location'), '/login');
  });
});
