// The watchlist routes on a real server (no snapshot needed: a valid CNPJ may be watched whether
// or not the registry has it): PUT 201/200, DELETE 204/404, GET pages without gaps while the list
// changes, POST in input order with invalid items reported and the limit all-or-nothing; one call
// per request, errors and quota headers as the other routes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { formatCnpj, makeCnpj } from '../../../src/domain/cnpj.ts';
import { openAppSqlite } from '../../../src/storage/app/sqlite.ts';
import {
  WatchlistAddResponseSchema,
  WatchlistPageSchema,
  WatchlistPutSchema,
} from '../../../src/domain/watchlist/schema.ts';
import {
  makeAccount,
  serve,
  get,
  tempDataDir,
  withAppDb,
  withAppStore,
  type TestAccount,
  type TestServer,
} from '../helpers.ts';

const cnpjs = (n: number, base = 10_000_000) =>
  Array.from({ length: n }, (_, i) => makeCnpj(String(base + i * 7), '0001'));

describe('watchlist API', () => {
  let dataDir: string;
  let server: TestServer;
  const url = (p = '') => `${server.url}/api/v1/watchlist${p}`;
  const call = (a: TestAccount, method: string, p = '', body?: unknown, type = 'application/json') =>
    get(url(p), {
      method,
      headers: { Authorization: `Bearer ${a.token}`, ...(body !== undefined ? { 'Content-Type': type } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));
  const used = (a: TestAccount) => withAppStore(dataDir, async (db) => (await currentUsage(db, a.accountId)).calls);
  const watched = (a: TestAccount) =>
    withAppDb(
      dataDir,
      (db) =>
        db
          .prepare('SELECT cnpj FROM watchlist WHERE account_id = ? ORDER BY cnpj')
          .pluck()
          .all(a.accountId) as string[],
    );
  /** A plan of its own with this watchlist limit. */
  const account = async (name: string, watchlistLimit = 1000, quota = 1000) => {
    const a = await makeAccount(dataDir, name, { quota });
    await withAppStore(dataDir, (db) => setPlan(db, `Plano ${name}`, { watchlistLimit }));
    return a;
  };

  before(async () => {
    dataDir = tempDataDir();
    server = await serve(dataDir);
  });
  after(async () => {
    await server.close();
  });

  test('PUT adds (201) then says it is there (200), formatted or bare; invalid is 400 and not counted', async () => {
    const a = await account('Put');
    const [c] = cnpjs(1);
    let r = await call(a, 'PUT', `/${c}`);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.ok(Value.Check(WatchlistPutSchema, r.body));
    assert.equal(r.body.cnpj, c);
    assert.deepEqual([r.body.total, r.body.watchlist_limit], [1, 1000]);
    assert.equal(remaining(r), 999);
    const first = r.body.added_at;
    // The formatted form with its slash (two path segments) and dots.
    r = await call(a, 'PUT', `/${formatCnpj(c!)}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.added_at, first, 'the first addition date is kept');
    assert.equal(remaining(r), 998);
    r = await call(a, 'PUT', '/33683111000281');
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'invalid_cnpj');
    assert.equal(remaining(r), 998, 'a 400 counts nothing and carries the headers');
    assert.equal(await used(a), 2);
    assert.deepEqual(await watched(a), [c]);
  });

  test('DELETE: 204 when it was watched, 404 not_watched after; both counted', async () => {
    const a = await account('Delete');
    const [c] = cnpjs(1, 20_000_000);
    await call(a, 'PUT', `/${c}`);
    let r = await call(a, 'DELETE', `/${c}`);
    assert.equal(r.status, 204);
    assert.equal(r.body, '');
    assert.equal(remaining(r), 998);
    r = await call(a, 'DELETE', `/${formatCnpj(c!)}`);
    assert.equal(r.status, 404);
    assert.equal(r.body.error, 'not_watched');
    assert.equal(remaining(r), 997);
    r = await call(a, 'DELETE', '/nada');
    assert.equal(r.status, 400);
    assert.equal(await used(a), 3);
    assert.deepEqual(await watched(a), []);
  });

  test('POST: per-CNPJ answers in input order, invalid reported, duplicates once, one call', async () => {
    const a = await account('Many');
    const [x, y, z] = cnpjs(3, 30_000_000);
    await call(a, 'PUT', `/${y}`);
    const r = await call(a, 'POST', '', {
      cnpjs: [formatCnpj(x!), 'nao-e-cnpj', y, x, z!.toLowerCase(), '33683111000281'],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(Value.Check(WatchlistAddResponseSchema, r.body));
    assert.deepEqual(
      r.body.results.map((i: { cnpj: string; status: number }) => [i.cnpj, i.status]),
      [
        [x, 201],
        ['nao-e-cnpj', 400],
        [y, 200],
        [x, 200],
        [z, 201],
        ['33683111000281', 400],
      ],
    );
    assert.equal((r.body.results[1] as { error?: string }).error, 'invalid_cnpj');
    assert.deepEqual([r.body.added, r.body.total, r.body.watchlist_limit], [2, 3, 1000]);
    assert.equal(await used(a), 2, 'the PUT and the POST');
    assert.deepEqual(await watched(a), [x, y, z].sort());
  });

  test('POST of only invalid CNPJs: answered, nothing added, nothing counted', async () => {
    const a = await account('Invalid');
    const r = await call(a, 'POST', '', { cnpjs: ['1', '2'] });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.results.map((i: { status: number }) => i.status),
      [400, 400],
    );
    assert.equal(remaining(r), 1000);
    assert.equal(await used(a), 0);
  });

  test('the plan limit: a list that does not fit adds nothing and says how many remain (409, counted)', async () => {
    const a = await account('Limite', 5);
    const list = cnpjs(7, 40_000_000);
    let r = await call(a, 'POST', '', { cnpjs: list.slice(0, 3) });
    assert.equal(r.status, 200);
    r = await call(a, 'POST', '', { cnpjs: [...list.slice(0, 3), ...list.slice(3, 6)] });
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal(r.body.error, 'watchlist_limit_exceeded');
    assert.match(
      r.body.message,
      /Estes 3 CNPJs novos não cabem .* plano Plano Limite permite 5 CNPJs e restam 2 vagas\. Nada foi adicionado\./,
    );
    assert.equal(remaining(r), 998, 'counted');
    assert.deepEqual(await watched(a), list.slice(0, 3).sort(), 'nothing of the refused list added');
    // Two fit; then a single PUT does not.
    r = await call(a, 'POST', '', { cnpjs: [list[0], list[3], list[4]] });
    assert.equal(r.status, 200);
    assert.equal(r.body.total, 5);
    r = await call(a, 'PUT', `/${list[5]}`);
    assert.equal(r.status, 409);
    assert.match(r.body.message, /Este CNPJ não cabe .* restam 0 vagas/);
    // Already watched still answers 200 at the limit.
    r = await call(a, 'PUT', `/${list[0]}`);
    assert.equal(r.status, 200);
    // The operator lowers the limit under the usage: nothing is removed, nothing more can be added.
    await withAppStore(dataDir, (db) => setPlan(db, 'Plano Limite', { watchlistLimit: 2 }));
    r = await call(a, 'PUT', `/${list[6]}`);
    assert.equal(r.status, 409);
    assert.equal((await watched(a)).length, 5);
  });

  test('GET pages in CNPJ order without gaps while the list changes; total and limit', async () => {
    const a = await account('Paginas');
    const list = cnpjs(25, 50_000_000).sort();
    await call(a, 'POST', '', { cnpjs: list });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await call(a, 'GET', `?limit=10${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(Value.Check(WatchlistPageSchema, r.body));
      assert.equal(r.body.watchlist_limit, 1000);
      seen.push(...r.body.data.map((d: { cnpj: string }) => d.cnpj));
      cursor = r.body.next_cursor;
      if (pages++ === 0) {
        assert.equal(r.body.total, 25);
        // Between pages: one already shown removed, one new added after the cursor, one before it.
        await call(a, 'DELETE', `/${list[0]}`);
        await call(a, 'PUT', `/${makeCnpj('99999998', '0001')}`);
        await call(a, 'PUT', `/${makeCnpj('00000001', '0001')}`);
      }
    } while (cursor !== null);
    assert.equal(pages, 3, 'no empty last page');
    // Every CNPJ watched throughout appears exactly once, in order; the one added after the cursor too.
    assert.deepEqual(seen, [...list, makeCnpj('99999998', '0001')]);
    const r = await call(a, 'GET', '');
    assert.equal(r.body.data.length, 26, 'default page of 100');
    assert.equal(r.body.next_cursor, null);
  });

  test('GET: bad limit or cursor is 400 invalid_parameter, not counted; HEAD works', async () => {
    const a = await account('Params');
    for (const q of ['?limit=0', '?limit=1001', '?cursor=abc', '?outro=1', `?cursor=${'A'.repeat(20)}`]) {
      const r = await call(a, 'GET', q);
      assert.equal(r.status, 400, q);
      assert.equal(r.body.error, 'invalid_parameter', q);
      assert.equal(remaining(r), 1000, q);
    }
    const r = await fetch(url(), { method: 'HEAD', headers: { Authorization: `Bearer ${a.token}` } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-ratelimit-remaining'), '999');
    assert.equal(await used(a), 1);
  });

  test('body errors of POST as the batch: 415, 400 invalid_body, 413; none counted', async () => {
    const a = await account('Corpo');
    let r = await call(a, 'POST', '', { cnpjs: ['x'] }, 'text/plain');
    assert.equal(r.status, 415);
    r = await call(a, 'POST', '', { cnpjs: [] });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'invalid_body');
    r = await call(a, 'POST', '', { cnpjs: cnpjs(1001) });
    assert.equal(r.status, 400);
    r = await call(a, 'POST', '', '{"cnpjs": [');
    assert.equal(r.body.error, 'invalid_body');
    r = await call(a, 'POST', '', { cnpjs: ['x'.repeat(70_000)] });
    assert.equal(r.status, 413);
    assert.equal(await used(a), 0);
  });

  test('token and quota: 401 without a token, 429 with Retry-After when the quota is used up', async () => {
    const a = await account('Cota', 1000, 2);
    let r = await get(url());
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'missing_token');
    await call(a, 'PUT', `/${cnpjs(1)[0]}`);
    await call(a, 'GET');
    r = await call(a, 'PUT', `/${cnpjs(2)[1]}`);
    assert.equal(r.status, 429);
    assert.equal(r.body.error, 'quota_exceeded');
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
    assert.equal(remaining(r), 0);
    assert.equal((await watched(a)).length, 1, 'refused before any write');
    r = await call(a, 'DELETE', '/nada');
    assert.equal(r.status, 429, 'an uncounted 400 becomes 429 when used up, as everywhere');
    r = await call(a, 'POST', '', { cnpjs: ['x'] });
    assert.equal(r.status, 429);
  });

  test('another process holding the write lock: the request waits (its count, then its write) without stopping the server, then lands', async () => {
    const a = await account('Trava');
    const [c] = cnpjs(1, 70_000_000);
    const other = openAppSqlite(dataDir);
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      const put = call(a, 'PUT', `/${c}`);
      // The server (in this process) answers other requests meanwhile: its event loop is free.
      await new Promise((r) => setTimeout(r, 150));
      const health = await get(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      other.prepare('COMMIT').run();
      const r = await put;
      assert.equal(r.status, 201, JSON.stringify(r.body));
    } finally {
      if (other.inTransaction) other.prepare('ROLLBACK').run();
      other.close();
    }
    assert.deepEqual(await watched(a), [c]);
  });

  test("another account never sees nor removes this one's CNPJs", async () => {
    const a = await account('Dono');
    const b = await account('Outro');
    const [c] = cnpjs(1, 60_000_000);
    await call(a, 'PUT', `/${c}`);
    assert.equal((await call(b, 'DELETE', `/${c}`)).status, 404);
    assert.deepEqual((await call(b, 'GET')).body.data, []);
    assert.equal((await call(a, 'GET')).body.total, 1);
  });
});

describe('watchlist in /openapi.json and /docs', () => {
  const BASE = 'https://cnpj.example';
  test('examples fit their schemas; the operations, parameters, curl samples and errors', async () => {
    const ex = await import('../../../src/server/docs/examples-watchlist.ts');
    assert.ok(Value.Check(WatchlistPageSchema, ex.watchlistPageExample()));
    assert.ok(Value.Check(WatchlistPutSchema, ex.watchlistPutExample()));
    assert.ok(Value.Check(WatchlistAddResponseSchema, ex.watchlistAddExample()));
    const { buildOpenApi } = await import('../../../src/server/docs/openapi.ts');
    const o = JSON.parse(JSON.stringify(buildOpenApi(BASE)));
    const list = o.paths['/api/v1/watchlist'].get;
    assert.deepEqual(
      list.parameters.map((p: { name: string }) => p.name),
      ['limit', 'cursor'],
    );
    assert.match(
      list['x-codeSamples'][0].source,
      /^curl -H "Authorization: Bearer \$CNPJ_API_TOKEN" "https:\/\/cnpj\.example\/api\/v1\/watchlist\?limit=100"$/,
    );
    assert.ok(!list.responses['503'].content['application/json'].examples.registry_unavailable, 'no snapshot needed');
    const post = o.paths['/api/v1/watchlist'].post;
    assert.ok(post.responses['409'].content['application/json'].examples.watchlist_limit_exceeded);
    assert.match(post['x-codeSamples'][0].source, /^curl -X POST .* -d '\{"cnpjs":/);
    const item = o.paths['/api/v1/watchlist/{cnpj}'];
    assert.equal(item.put.responses['201'].description, 'O CNPJ entrou na lista.');
    assert.ok(item.put.responses['200'] && item.put.responses['409']);
    assert.ok(item.delete.responses['204']);
    assert.ok(item.delete.responses['404'].content['application/json'].examples.not_watched);
    for (const name of ['WatchlistPage', 'WatchlistPut', 'WatchlistAddRequest', 'WatchlistAddResponse'])
      assert.ok(o.components.schemas[name], name);
    const { buildDocsHtml } = await import('../../../src/server/docs/docs.ts');
    const d = buildDocsHtml(BASE).replace(/<wbr>/g, '');
    for (const s of [
      'href="#monitoramento"',
      'id="monitoramento"',
      'curl -X PUT',
      'curl -X DELETE',
      '/api/v1/watchlist?limit=100',
      'watchlist_limit_exceeded',
      'not_watched',
    ])
      assert.ok(d.includes(s), s);
  });
});
