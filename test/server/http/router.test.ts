// The route table (src/server/http/router.ts): paths match as polka 0.5 matched them, so the
// answers stay what they were; a table that could match one path two ways is refused; a
// handler's throw or rejection reaches the one error handler; the query is node:querystring's.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Router, type Route, type RouterHooks } from '../../../src/server/http/router.ts';

const noop = () => {};
const route = (method: Route['method'], path: string, handler: Route['handler'] = noop): Route => ({ method, path, handler });
const hooks: RouterHooks = { onError: noop, noMatch: noop };

const TABLE = [
  route('GET', '/api/v1/brazilian_companies/:cnpj/company'),
  route('GET', '/api/v1/brazilian_companies/:a/:b/company'),
  route('GET', '/'),
  route('GET', '/login'),
  route('POST', '/login'),
  route('POST', '/api-de-cnpj/tokens/:id/ativar'),
  route('GET', '/test/throws'),
  route('GET', '/test/throws/:x'),
];

describe('route table', () => {
  const router = new Router(TABLE, hooks);
  const match = (target: string, method = 'GET') => {
    const m = router.match(method, target);
    return m && { path: m.route.path, params: { ...m.params }, query: m.query };
  };

  test('paths match as polka 0.5 matched them: one leading and one trailing slash do not count, params stay encoded', () => {
    const lookup = '/api/v1/brazilian_companies/:cnpj/company';
    const cases: [string, ReturnType<typeof match>][] = [
      ['/api/v1/brazilian_companies/33683111000280/company', { path: lookup, params: { cnpj: '33683111000280' }, query: '' }],
      ['/api/v1/brazilian_companies/33683111000280/company/', { path: lookup, params: { cnpj: '33683111000280' }, query: '' }],
      ['/api/v1/brazilian_companies/33683111000280/company?api_token=t&x', { path: lookup, params: { cnpj: '33683111000280' }, query: 'api_token=t&x' }],
      ['/api/v1/brazilian_companies/33683111000280/company/?x=1/2', { path: lookup, params: { cnpj: '33683111000280' }, query: 'x=1/2' }],
      ['/api/v1/brazilian_companies/33.683.111%2F0002-80/company', { path: lookup, params: { cnpj: '33.683.111%2F0002-80' }, query: '' }],
      ['/api/v1/brazilian_companies//company', { path: lookup, params: { cnpj: '' }, query: '' }],
      ['/api/v1/brazilian_companies/33.683.111/0002-80/company', { path: '/api/v1/brazilian_companies/:a/:b/company', params: { a: '33.683.111', b: '0002-80' }, query: '' }],
      ['/api/v1/brazilian_companies/33683111000280/company//', undefined],
      ['//api/v1/brazilian_companies/33683111000280/company', undefined],
      ['/api/v1/brazilian_companies/33683111000280/companyx', undefined],
      ['/API/v1/brazilian_companies/33683111000280/company', undefined],
      ['/', { path: '/', params: {}, query: '' }],
      ['/?saiu', { path: '/', params: {}, query: 'saiu' }],
      ['//', undefined],
      ['/login/', { path: '/login', params: {}, query: '' }],
      ['/login?x=/a?b', { path: '/login', params: {}, query: 'x=/a?b' }],
      ['/login//', undefined],
      // The trailing slash is dropped before the last segment matches: no empty :x from it.
      ['/test/throws/', { path: '/test/throws', params: {}, query: '' }],
      ['/test/throws//', { path: '/test/throws/:x', params: { x: '' }, query: '' }],
      ['/test/throws/a', { path: '/test/throws/:x', params: { x: 'a' }, query: '' }],
    ];
    for (const [target, expected] of cases) assert.deepEqual(match(target), expected, target);
    assert.deepEqual(match('/api-de-cnpj/tokens/12/ativar', 'POST'), { path: '/api-de-cnpj/tokens/:id/ativar', params: { id: '12' }, query: '' });
    assert.equal(match('/api-de-cnpj/tokens/12/ativar'), undefined, 'a POST route is not a GET one');
  });

  test('HEAD wherever GET, and Allow lists the methods of a path in a fixed order', () => {
    assert.equal(router.match('HEAD', '/login')?.route, router.match('GET', '/login')?.route);
    assert.equal(router.match('HEAD', '/api/v1/brazilian_companies/x/company')?.route.path, '/api/v1/brazilian_companies/:cnpj/company');
    assert.deepEqual(router.allowed('/login'), ['GET', 'HEAD', 'POST']);
    assert.deepEqual(router.allowed('/login/', 'GET'), ['HEAD', 'POST']);
    assert.deepEqual(router.allowed('/api-de-cnpj/tokens/1/ativar'), ['POST']);
    assert.deepEqual(router.allowed('/nada'), []);
  });

  test('a table that could answer one path two ways, or with patterns it cannot match, is refused', () => {
    const overlap = /routes GET \S+ and \S+ can match the same path/;
    assert.throws(() => new Router([route('GET', '/a'), route('GET', '/a/')], hooks), overlap);
    assert.throws(() => new Router([route('GET', '/a/:x'), route('GET', '/a/:y')], hooks), overlap);
    assert.throws(() => new Router([route('GET', '/a/:x'), route('GET', '/a/b')], hooks), overlap);
    assert.throws(() => new Router([route('GET', '/a/b/:x'), route('GET', '/a/:y/c')], hooks), overlap);
    assert.throws(() => new Router([route('GET', '/:x/a')], hooks), /first segment is static/);
    assert.throws(() => new Router([route('GET', '/a/*')], hooks), /only static and :name/);
    assert.throws(() => new Router([route('GET', '/a/:x-y')], hooks), /parameter name/);
    // One path, two methods: fine.
    assert.doesNotThrow(() => new Router([route('GET', '/a/:x'), route('POST', '/a/b'), route('GET', '/a/b/c')], hooks));
  });
});

describe('dispatch over a real socket', () => {
  const failures: { message: string; route: string | undefined }[] = [];
  let server: http.Server;
  let url: string;
  const echo: Route['handler'] = (req, res) => res.end(JSON.stringify({ params: req.params, query: req.query }));
  before(async () => {
    const router = new Router(
      [
        route('GET', '/echo/:id', echo),
        route('GET', '/echo', echo),
        route('GET', '/throws', () => {
          throw new Error('sync boom');
        }),
        route('GET', '/rejects', async () => {
          throw new Error('async boom');
        }),
      ],
      {
        onError(err, _req, res, r) {
          failures.push({ message: (err as Error).message, route: r?.path });
          res.statusCode = 500;
          res.end('failed');
        },
        async noMatch(req, res, allow) {
          if (req.url === '/no-match-rejects') throw new Error('no-match boom');
          res.statusCode = allow.length > 0 ? 405 : 404;
          res.end(allow.join(', '));
        },
      },
    );
    server = http.createServer((req, res) => router.dispatch(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('the query is node:querystring parse: repeated keys, empty values, percent and plus decoding, bad escapes kept', async () => {
    const r = await fetch(`${url}/echo/a%2Fb?api_token=one&api_token=two&x&y=&z=%C3%A7+%zz`);
    assert.deepEqual(await r.json(), { params: { id: 'a%2Fb' }, query: { api_token: ['one', 'two'], x: '', y: '', z: 'ç %zz' } });
    assert.deepEqual(await (await fetch(`${url}/echo`)).json(), { params: {}, query: {} });
    assert.deepEqual(await (await fetch(`${url}/nada?x=1`)).text(), '');
  });

  test('a sync throw, a rejection and a failing no-match answer each reach onError once, with their route', async () => {
    failures.length = 0;
    for (const path of ['/throws', '/rejects', '/no-match-rejects']) assert.equal((await fetch(url + path)).status, 500, path);
    assert.deepEqual(failures, [
      { message: 'sync boom', route: '/throws' },
      { message: 'async boom', route: '/rejects' },
      { message: 'no-match boom', route: undefined },
    ]);
    const wrong = await fetch(`${url}/echo`, { method: 'DELETE' });
    assert.equal(wrong.status, 405);
    assert.equal(await wrong.text(), 'GET, HEAD');
  });
});
