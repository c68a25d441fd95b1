// HEAD works wherever GET does, with the GET's status and headers (Content-Length included)
// and no body: API lookup (counted like a GET), status, docs, OpenAPI, web pages and assets,
// and the errors (404, 405 with Allow). Every entry of the route table is gone through.
import assert from 'node:assert/strict';
import { compatPrefix } from '../../src/server/api/compat-shapes.ts';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { STYLE_PATH } from '../../src/server/web/assets/style.ts';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import {
  makeAccount,
  publish,
  serve,
  tempDataDir,
  writeSnapshot,
  type TestAccount,
  type TestServer,
} from './helpers.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(method: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Headers that differ between two requests by nature: the clock, a fresh CSRF cookie. */
const VARYING = new Set(['date', 'set-cookie', 'x-ratelimit-remaining']);

function sameHeaders(get: Answer, head: Answer, what: string): void {
  assert.equal(head.status, get.status, what);
  assert.equal(head.body, '', `${what}: no body`);
  const names = (a: Answer) => Object.keys(a.headers).sort();
  assert.deepEqual(names(head), names(get), what);
  for (const name of names(get)) {
    if (!VARYING.has(name)) assert.deepEqual(head.headers[name], get.headers[name], `${what}: ${name}`);
  }
  if (get.body !== '')
    assert.equal(Number(head.headers['content-length']), Buffer.byteLength(get.body), `${what}: Content-Length`);
}

describe('HEAD wherever GET', () => {
  let server: TestServer;
  let acct: TestAccount;
  const dataDir = tempDataDir();

  before(async () => {
    const data = fixture();
    writeSnapshot(dataDir, 's1', data);
    await publish(dataDir, 's1', '2026-04', data);
    acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
    server = await serve(dataDir);
  });
  after(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const path of [
    '/',
    '/app',
    '/login',
    '/api-de-cnpj',
    '/docs',
    '/openapi.json',
    '/healthz',
    '/api/v1/status',
    STYLE_PATH,
    '/nao-existe',
    `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`,
  ]) {
    test(`HEAD ${path}: the GET's status and headers, no body`, async () => {
      sameHeaders(await request('GET', server.url + path), await request('HEAD', server.url + path), path);
    });
  }

  test('HEAD of a lookup: 200 with the rate-limit headers, counted as a call', async () => {
    const url = `${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;
    const auth = { Authorization: `Bearer ${acct.token}` };
    const get = await request('GET', url, auth);
    const head = await request('HEAD', url, auth);
    assert.equal(get.status, 200);
    sameHeaders(get, head, 'lookup');
    assert.equal(Number(head.headers['x-ratelimit-remaining']), Number(get.headers['x-ratelimit-remaining']) - 1);
    // Through the query token, and an invalid CNPJ (400, not counted).
    sameHeaders(
      await request('GET', `${url}?api_token=${acct.token}`),
      await request('HEAD', `${url}?api_token=${acct.token}`),
      'query token',
    );
    const bad = `${server.url}/api/v1/brazilian_companies/123/company`;
    sameHeaders(await request('GET', bad, auth), await request('HEAD', bad, auth), 'invalid CNPJ');
  });

  // A value for each `:name` of the table's patterns: a new one must be given here.
  const SAMPLE: Record<string, string> = { cnpj: SERPRO_FILIAL, a: '33.683.111', b: '0002-80', id: '1', n: '30' };
  const concrete = (pattern: string) =>
    pattern.replace(/:(\w+)/g, (_, name: string) => {
      // The compat routes' /t/{token}/ prefix: the account's own token.
      if (name === 'token') return acct.token;
      assert.ok(SAMPLE[name], `a sample value for :${name} (${pattern})`);
      return SAMPLE[name]!;
    });

  test('every route of the table: HEAD answers like GET, other methods 405 with Allow', async () => {
    assert.ok(server.routes.length >= 20, `the whole table: ${server.routes.length} routes`);
    const auth = { Authorization: `Bearer ${acct.token}` };
    for (const route of server.routes) {
      const path = concrete(route.path);
      const methods: string[] = server.routes.filter((r) => concrete(r.path) === path).map((r) => r.method);
      if (methods.includes('GET')) methods.push('HEAD');
      const allow = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => methods.includes(m));
      const what = `${route.method} ${path}`;
      if (route.method === 'GET') {
        sameHeaders(
          await request('GET', server.url + path, auth),
          await request('HEAD', server.url + path, auth),
          what,
        );
      } else if (!methods.includes('GET')) {
        const head = await request('HEAD', server.url + path);
        assert.equal(head.status, 405, what);
        assert.equal(head.headers.allow, allow.join(', '), what);
      }
      // The methods this path does not take (the watchlist's item route takes PUT and DELETE).
      for (const method of ['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'].filter((m) => !methods.includes(m))) {
        const r = await request(method, server.url + path, auth);
        assert.equal(r.status, 405, `${method} ${path}`);
        assert.equal(r.headers.allow, allow.join(', '), `${method} ${path}`);
        // The compat routes answer in their upstream's envelope (test/server/api/compat.test.ts).
        if (compatPrefix(path) === null) assert.equal(JSON.parse(r.body).error, 'method_not_allowed');
      }
    }
  });

  test('405 on a POST-only route: Allow lists POST, for GET and HEAD alike', async () => {
    const get = await request('GET', `${server.url}/logout`);
    const head = await request('HEAD', `${server.url}/logout`);
    assert.equal(get.status, 405);
    sameHeaders(get, head, '/logout');
    assert.equal(head.headers.allow, 'POST');
    // A GET route answers other methods with both.
    assert.equal((await request('DELETE', `${server.url}/docs`)).headers.allow, 'GET, HEAD');
  });
});
