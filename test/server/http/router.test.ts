// The route table served by polka (src/server/http/router.ts), over a real socket: paths match as
// polka 0.5 matches them (the answers of the golden files); a table that could match one path two
// ways is refused; a handler's throw or rejection reaches the one error handler, with its route;
// the query is node:querystring's; HEAD wherever GET, 405 with Allow.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import { after, before, describe, test } from 'node:test';
import { routeTableApp, type Route, type RouterHooks } from '../../../src/server/http/router.ts';

const noop = () => {};
const route = (method: Route['method'], path: string, handler: Route['handler'] = noop): Route => ({
  method,
  path,
  handler,
});
const hooks: RouterHooks = { onError: noop, noMatch: noop };

/** A raw request target (no URL normalisation by the client): status, headers, body. */
function request(
  base: string,
  method: string,
  target: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(base, { method, path: target, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const PATHS = [
  '/api/v1/brazilian_companies/:cnpj/company',
  '/api/v1/brazilian_companies/:a/:b/company',
  '/',
  '/login',
  '/test/throws',
  '/test/throws/:x',
];

describe('route table', () => {
  let server: http.Server;
  let url: string;
  // Each route answers which it is, with its params and query.
  const echo =
    (path: string): Route['handler'] =>
    (req, res) => {
      res.setHeader('X-Route', path);
      res.end(JSON.stringify({ path, params: req.params, query: req.query }));
    };
  before(async () => {
    const app = routeTableApp(
      [
        ...PATHS.map((p) => route('GET', p, echo(p))),
        route('POST', '/login', echo('POST /login')),
        route('POST', '/api-de-cnpj/tokens/:id/ativar', echo('ativar')),
      ],
      {
        onError: noop,
        noMatch(_req, res, allow) {
          res.statusCode = allow.length > 0 ? 405 : 404;
          res.end(allow.join(', '));
        },
      },
    );
    ({ server, url } = await listen(app.handler));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const match = async (target: string, method = 'GET') => {
    const r = await request(url, method, target);
    return r.status === 200 ? JSON.parse(r.body) : r.status;
  };

  test('paths match as polka 0.5 matched them: one leading and one trailing slash do not count, params stay encoded', async () => {
    const lookup = '/api/v1/brazilian_companies/:cnpj/company';
    const hit = (path: string, params: Record<string, string>, query = '') => ({
      path,
      params,
      query: { ...parseQuery(query) },
    });
    const cases: [string, unknown][] = [
      ['/api/v1/brazilian_companies/33683111000280/company', hit(lookup, { cnpj: '33683111000280' })],
      ['/api/v1/brazilian_companies/33683111000280/company/', hit(lookup, { cnpj: '33683111000280' })],
      [
        '/api/v1/brazilian_companies/33683111000280/company?api_token=t&x',
        hit(lookup, { cnpj: '33683111000280' }, 'api_token=t&x'),
      ],
      ['/api/v1/brazilian_companies/33683111000280/company/?x=1/2', hit(lookup, { cnpj: '33683111000280' }, 'x=1/2')],
      ['/api/v1/brazilian_companies/33.683.111%2F0002-80/company', hit(lookup, { cnpj: '33.683.111%2F0002-80' })],
      ['/api/v1/brazilian_companies//company', hit(lookup, { cnpj: '' })],
      [
        '/api/v1/brazilian_companies/33.683.111/0002-80/company',
        hit('/api/v1/brazilian_companies/:a/:b/company', { a: '33.683.111', b: '0002-80' }),
      ],
      ['/api/v1/brazilian_companies/33683111000280/company//', 404],
      ['//api/v1/brazilian_companies/33683111000280/company', 404],
      ['/api/v1/brazilian_companies/33683111000280/companyx', 404],
      ['/API/v1/brazilian_companies/33683111000280/company', 404],
      ['/', hit('/', {})],
      ['/?saiu', hit('/', {}, 'saiu')],
      ['//', 404],
      ['/login/', hit('/login', {})],
      ['/login?x=/a?b', hit('/login', {}, 'x=/a?b')],
      ['/login//', 404],
      // The trailing slash is dropped before the last segment matches: no empty :x from it.
      ['/test/throws/', hit('/test/throws', {})],
      ['/test/throws//', hit('/test/throws/:x', { x: '' })],
      ['/test/throws/a', hit('/test/throws/:x', { x: 'a' })],
    ];
    for (const [target, expected] of cases) assert.deepEqual(await match(target), expected, target);
    assert.deepEqual(await match('/api-de-cnpj/tokens/12/ativar', 'POST'), hit('ativar', { id: '12' }));
    assert.equal(await match('/api-de-cnpj/tokens/12/ativar'), 405, 'a POST route is not a GET one');
  });

  test('HEAD wherever GET, and Allow lists the methods of a path in a fixed order', async () => {
    const head = await request(url, 'HEAD', '/login');
    assert.equal(head.status, 200);
    assert.equal(head.headers['x-route'], '/login');
    assert.equal(head.body, '');
    assert.equal(
      (await request(url, 'HEAD', '/api/v1/brazilian_companies/x/company')).headers['x-route'],
      '/api/v1/brazilian_companies/:cnpj/company',
    );
    for (const [method, target, allow] of [
      ['DELETE', '/login', 'GET, HEAD, POST'],
      ['PUT', '/login/', 'GET, HEAD, POST'],
      ['GET', '/api-de-cnpj/tokens/1/ativar', 'POST'],
      ['HEAD', '/api-de-cnpj/tokens/1/ativar', 'POST'],
      ['POST', '/', 'GET, HEAD'],
    ]) {
      const r = await request(url, method!, target!);
      assert.equal(r.status, 405, `${method} ${target}`);
      // HEAD has no body to carry the list: the same answer a GET would have had.
      if (method !== 'HEAD') assert.equal(r.body, allow, `${method} ${target}`);
    }
    assert.equal((await request(url, 'GET', '/nada')).status, 404);
  });

  test('a table that could answer one path two ways, or with patterns it cannot check, is refused', () => {
    const overlap = /routes GET \S+ and \S+ can match the same path/;
    assert.throws(() => routeTableApp([route('GET', '/a'), route('GET', '/a/')], hooks), overlap);
    assert.throws(() => routeTableApp([route('GET', '/a/:x'), route('GET', '/a/:y')], hooks), overlap);
    assert.throws(() => routeTableApp([route('GET', '/a/:x'), route('GET', '/a/b')], hooks), overlap);
    assert.throws(() => routeTableApp([route('GET', '/a/b/:x'), route('GET', '/a/:y/c')], hooks), overlap);
    assert.throws(() => routeTableApp([route('GET', '/:x'), route('GET', '/a')], hooks), overlap);
    assert.throws(() => routeTableApp([route('GET', '/a/*')], hooks), /only static and :name/);
    assert.throws(() => routeTableApp([route('GET', '/a/:x?')], hooks), /only static and :name/);
    assert.throws(() => routeTableApp([route('GET', '/a/:x-y')], hooks), /parameter name/);
    // One path, two methods: fine; a `:name` never matches the root.
    assert.doesNotThrow(() =>
      routeTableApp([route('GET', '/a/:x'), route('POST', '/a/b'), route('GET', '/a/b/c')], hooks),
    );
    assert.doesNotThrow(() => routeTableApp([route('GET', '/'), route('GET', '/:x')], hooks));
  });
});

describe('failures and the query over a real socket', () => {
  const failures: { message: string; route: string | undefined }[] = [];
  let server: http.Server;
  let url: string;
  const echo: Route['handler'] = (req, res) => {
    res.end(JSON.stringify({ params: req.params, query: req.query }));
  };
  before(async () => {
    const app = routeTableApp(
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
    ({ server, url } = await listen(app.handler));
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('the query is node:querystring parse: repeated keys, empty values, percent and plus decoding, bad escapes kept', async () => {
    const r = await fetch(`${url}/echo/a%2Fb?api_token=one&api_token=two&x&y=&z=%C3%A7+%zz`);
    assert.deepEqual(await r.json(), {
      params: { id: 'a%2Fb' },
      query: { api_token: ['one', 'two'], x: '', y: '', z: 'ç %zz' },
    });
    assert.deepEqual(await (await fetch(`${url}/echo`)).json(), { params: {}, query: {} });
    assert.deepEqual(await (await fetch(`${url}/nada?x=1`)).text(), '');
  });

  test('a sync throw, a rejection and a failing no-match answer each reach onError once, with their route', async () => {
    failures.length = 0;
    for (const path of ['/throws', '/rejects', '/no-match-rejects'])
      assert.equal((await fetch(url + path)).status, 500, path);
    assert.equal((await fetch(url + '/throws', { method: 'HEAD' })).status, 500, 'HEAD /throws');
    assert.deepEqual(failures, [
      { message: 'sync boom', route: '/throws' },
      { message: 'async boom', route: '/rejects' },
      { message: 'no-match boom', route: undefined },
      { message: 'sync boom', route: '/throws' },
    ]);
    const wrong = await fetch(`${url}/echo`, { method: 'DELETE' });
    assert.equal(wrong.status, 405);
    assert.equal(await wrong.text(), 'GET, HEAD');
  });
});
