import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { deactivateToken } from '../../../src/domain/accounts/tokens.ts';
import { ERRORS } from '../../../src/domain/api-errors.ts';
import { SERPRO_FILIAL, fixture } from '../fixtures.ts';
import {
  bearer,
  get,
  makeAccount,
  publish,
  serve,
  sleep,
  tempDataDir,
  withAppStore,
  writeSnapshot,
  type TestServer,
} from '../helpers.ts';

const PT = /[ãçéêíóõúà]|\b(de|da|do|não|está|informe)\b/i;

function assertError(r: { status: number; body: any }, status: number, error: string) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body), ['error', 'message']);
  assert.equal(r.body.error, error);
  assert.equal(typeof r.body.message, 'string');
  assert.match(r.body.message, PT, 'a Portuguese sentence');
}

/** A handler that fails halfway: a header already set, then the throw. */
function fail(res: ServerResponse, message: string): never {
  res.setHeader('X-Half-Done', '1');
  throw new Error(message);
}

describe('error table (docs/errors.md)', () => {
  let dataDir: string;
  let server: TestServer;
  // The server's clock: moved forward to expire a token.
  let nowMs = Date.now();
  const api = (cnpj = SERPRO_FILIAL) => `${server.url}/api/v1/brazilian_companies/${cnpj}/company`;

  before(async () => {
    dataDir = tempDataDir();
    server = await serve(dataDir, {
      now: () => new Date(nowMs),
      // Failing routes: every failure reaches the one error handler, a JSON 500 or the 500 page.
      extraRoutes: [
        { method: 'GET', path: '/test/throws', handler: (_req, res) => fail(res, 'boom: secret internals') },
        { method: 'GET', path: '/test/rejects', handler: async (_req, res) => fail(res, 'async boom') },
        { method: 'GET', path: '/test/page-throws', html: true, handler: (_req, res) => fail(res, 'page boom') },
        {
          method: 'GET',
          path: '/test/page-rejects',
          html: true,
          handler: async (_req, res) => fail(res, 'async page boom'),
        },
      ],
    });
  });
  after(async () => {
    await server.close();
  });

  test('503 registry_unavailable before any snapshot (after auth, with rate-limit headers, not counted)', async () => {
    const a = await makeAccount(dataDir, 'Antes', { plan: 'Bronze' });
    assertError(await get(api()), 401, 'missing_token');
    const r = await get(api(), bearer(a.token));
    assertError(r, 503, 'registry_unavailable');
    assert.equal(r.headers.get('x-ratelimit-limit'), '5000');
    assert.equal(r.headers.get('x-ratelimit-remaining'), '5000');
    // The CNPJ is validated before availability.
    assertError(await get(api('123'), bearer(a.token)), 400, 'invalid_cnpj');
    const s = await get(`${server.url}/api/v1/status`);
    assert.deepEqual(s.body, { status: 'registry_unavailable', registry: null });
  });

  test('a snapshot of another schema_version is refused; the next good one is served without restart', async () => {
    const a = await makeAccount(dataDir, 'Versao', { plan: 'Bronze' });
    const data = fixture();
    writeSnapshot(dataDir, 'v99', data, { schemaVersion: 99 });
    await publish(dataDir, 'v99', '2026-03', data);
    await sleep(150);
    assertError(await get(api(), bearer(a.token)), 503, 'registry_unavailable');
    assert.ok(
      server.lines.some((l) => /refusing snapshot v99.*schema_version 99/.test(l)),
      server.lines.join('\n'),
    );

    writeSnapshot(dataDir, 'nometa', data, { schemaVersion: null });
    await publish(dataDir, 'nometa', '2026-03', data);
    await sleep(150);
    assertError(await get(api(), bearer(a.token)), 503, 'registry_unavailable');

    writeSnapshot(dataDir, 'good', data);
    await publish(dataDir, 'good', '2026-04', data);
    for (let i = 0; i < 100 && (await get(api(), bearer(a.token))).status === 503; i++) await sleep(20);
    assert.equal((await get(api(), bearer(a.token))).status, 200);
  });

  test('every token and account error', async () => {
    assertError(await get(api()), 401, 'missing_token');
    assertError(await get(api(), { headers: { Authorization: 'Bearer ' } }), 401, 'missing_token');
    assertError(await get(`${api()}?api_token=`), 401, 'missing_token');
    assertError(await get(api(), bearer('not-a-token')), 401, 'invalid_token');
    assertError(await get(api(), bearer('cnpj_' + 'A'.repeat(39))), 401, 'invalid_token');

    const d = await makeAccount(dataDir, 'Desativado');
    await withAppStore(dataDir, (s) => deactivateToken(s, d.tokenId));
    assertError(await get(api(), bearer(d.token)), 401, 'token_deactivated');

    const e = await makeAccount(dataDir, 'Expira', { expires: '1d' });
    assert.equal((await get(api(), bearer(e.token))).status, 200);
    nowMs += 3 * 86_400_000;
    try {
      assertError(await get(api(), bearer(e.token)), 401, 'token_expired');
    } finally {
      nowMs = Date.now();
    }

    const s = await makeAccount(dataDir, 'Suspensa');
    await withAppStore(dataDir, (sqlite) => suspendAccount(sqlite, 'Suspensa'));
    assertError(await get(api(), bearer(s.token)), 403, 'account_suspended');

    const p = await makeAccount(dataDir, 'SemApi', { apiIncluded: false });
    assertError(await get(api(), bearer(p.token)), 403, 'plan_without_api');
  });

  test('quota_exceeded: 429 with Retry-After and the rate-limit headers', async () => {
    const q = await makeAccount(dataDir, 'Cota', { quota: 2 });
    const r1 = await get(api(), bearer(q.token));
    assert.equal(r1.status, 200);
    assert.equal(r1.headers.get('x-ratelimit-remaining'), '1');
    const r2 = await get(api(), bearer(q.token));
    assert.equal(r2.status, 200);
    assert.equal(r2.headers.get('x-ratelimit-remaining'), '0');
    const r3 = await get(api(), bearer(q.token));
    assertError(r3, 429, 'quota_exceeded');
    assert.equal(r3.headers.get('x-ratelimit-limit'), '2');
    assert.equal(r3.headers.get('x-ratelimit-remaining'), '0');
    const reset = Number(r3.headers.get('x-ratelimit-reset'));
    const retry = Number(r3.headers.get('retry-after'));
    assert.ok(retry >= 1 && Math.abs(Date.now() / 1000 + retry - reset) < 5, `${retry} vs ${reset}`);
    // Authentication already reports a used-up quota, so it answers before CNPJ validation.
    assertError(await get(api('123'), bearer(q.token)), 429, 'quota_exceeded');
  });

  test('a route that throws or rejects → 500 internal_error, stack in the log only', async () => {
    for (const path of ['/test/throws', '/test/rejects']) {
      const r = await get(`${server.url}${path}`);
      assert.equal(r.status, 500);
      assert.deepEqual(Object.keys(r.body), ['error', 'message']);
      assert.equal(r.body.error, 'internal_error');
      assert.doesNotMatch(JSON.stringify(r.body), /boom|at |\.ts/);
      assert.equal(r.headers.get('x-half-done'), null, 'what the handler had set is gone');
    }
    for (const message of ['boom: secret internals', 'async boom']) {
      assert.ok(
        server.lines.some(
          (l) => l.startsWith('error: GET /test/') && l.includes(`Error: ${message}`) && l.includes('errors.test.ts'),
        ),
        `${message}: stack logged`,
      );
    }
    // The server is still up.
    assert.equal((await get(`${server.url}/healthz`)).status, 200);
  });

  test('a page that throws or rejects → the 500 page, stack in the log only', async () => {
    for (const [path, message] of [
      ['/test/page-throws', 'page boom'],
      ['/test/page-rejects', 'async page boom'],
    ]) {
      const r = await get(`${server.url}${path}`);
      assert.equal(r.status, 500, path);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'self'/);
      assert.match(r.body, /<h1 id="erro-titulo">Erro interno<\/h1>/);
      assert.doesNotMatch(r.body, /boom|\.ts:/);
      assert.ok(
        server.lines.some((l) => l.startsWith(`error: GET ${path}: Error: ${message}`) && l.includes('errors.test.ts')),
        `${path}: stack logged`,
      );
    }
  });

  test('the table itself: statuses and codes as docs/errors.md lists them', () => {
    const table = Object.fromEntries(Object.values(ERRORS).map((e) => [`${e.status} ${e.error}`, true]));
    for (const row of [
      '400 invalid_cnpj',
      '401 missing_token',
      '401 invalid_token',
      '401 token_deactivated',
      '401 token_expired',
      '403 account_suspended',
      '403 plan_without_api',
      '429 quota_exceeded',
      '404 not_found',
      '503 registry_unavailable',
      '405 method_not_allowed',
      '500 internal_error',
      '503 server_busy',
      '503 database_unavailable',
      '400 bad_request',
      '408 request_timeout',
      '413 request_too_large',
      '417 expectation_failed',
      '431 headers_too_large',
    ]) {
      assert.ok(table[row], row);
    }
    for (const e of Object.values(ERRORS)) assert.match(e.message, PT, e.error);
  });
});
