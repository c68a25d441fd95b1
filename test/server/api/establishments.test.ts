// GET /api/v1/brazilian_companies/{cnpj}/establishments against a real imported month
// (imported.ts): head office first, keyset pages with no gap and no duplicate, the cursor bound
// to its company, parameters, counting (one call per page, 404 counted, 400 not), HEAD.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { EstablishmentsPageSchema } from '../../../src/domain/company/list-schema.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { formatCnpj, makeCnpj } from '../../../src/domain/cnpj.ts';
import { MAPPED_COLUMNS } from '../../../src/domain/company/map.ts';
import { rootRowsSql } from '../../../src/domain/registry/root-rows.ts';
import { attachSnapshot } from '../../../src/storage/snapshots/attach.ts';
import { openSqlite } from '../../../src/storage/sqlite.ts';
import { active } from '../../importer/helpers.ts';
import {
  bearer,
  get,
  loadContacts,
  makeAccount,
  serve,
  withAppStore,
  type TestAccount,
  type TestServer,
} from '../helpers.ts';
import { ALNUM_CNPJS, NEIGHBOURS, NO_HEAD_CNPJS, SERPRO_CNPJS, importedDataDir } from './imported.ts';

FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v));

describe('establishments of a company', () => {
  let dataDir: string;
  let server: TestServer;
  let acct: TestAccount;
  const url = (cnpj: string, qs = '') => `${server.url}/api/v1/brazilian_companies/${cnpj}/establishments${qs}`;
  const list = (cnpj: string, qs = '', a: TestAccount = acct) => get(url(cnpj, qs), bearer(a.token));
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));

  /** Every page of a listing with `limit`, starting from `cnpjs[i % n]` on page i (any CNPJ of the root continues it). */
  async function walk(cnpjs: string[], limit: number): Promise<{ pages: string[][]; calls: number }> {
    const pages: string[][] = [];
    const first = await list(cnpjs[0]!, `?limit=${limit}`);
    let r = first;
    for (;;) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.data.length <= limit);
      pages.push(r.body.data.map((c: { cnpj: string }) => c.cnpj));
      const cursor: string | null = r.body.next_cursor;
      if (cursor === null) break;
      assert.equal(r.body.data.length, limit, 'only the last page is short');
      r = await list(cnpjs[pages.length % cnpjs.length]!, `?limit=${limit}&cursor=${cursor}`);
    }
    return { pages, calls: remaining(first) - remaining(r) + 1 };
  }

  before(async () => {
    dataDir = await importedDataDir();
    await loadContacts(dataDir, [
      {
        cnpj: SERPRO_CNPJS[3]!,
        tipo_contato: 'website',
        tipo_website: 'institucional',
        contato: 'https://filial.example',
      },
    ]);
    acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
    server = await serve(dataDir);
  });
  after(async () => {
    await server.close();
  });

  test("head office first, then the branches in CNPJ order; each item is the lookup's company object", async () => {
    for (const from of [SERPRO_CNPJS[4]!, SERPRO_CNPJS[0]!]) {
      const r = await list(from);
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.body), ['data', 'next_cursor']);
      assert.ok(Value.Check(EstablishmentsPageSchema, r.body), 'the answer fits its documented schema');
      assert.deepEqual(
        r.body.data.map((c: { cnpj: string }) => c.cnpj),
        SERPRO_CNPJS,
      );
      assert.equal(r.body.next_cursor, null);
      assert.deepEqual(
        r.body.data.map((c: { matriz_filial: string }) => c.matriz_filial),
        ['MATRIZ', ...Array(6).fill('FILIAL')],
      );
      for (const n of NEIGHBOURS)
        assert.ok(!r.body.data.some((c: { cnpj: string }) => c.cnpj === n), 'the next and previous roots stay out');
    }
    const page = (await list(SERPRO_CNPJS[0]!)).body.data;
    for (const company of page) {
      const lookup = await get(`${server.url}/api/v1/brazilian_companies/${company.cnpj}/company`, bearer(acct.token));
      assert.deepEqual(company, lookup.body.company, company.cnpj);
    }
    assert.equal(page[3].has_website, true, 'extra contacts are per establishment');
    assert.equal(page[1].regime_tributario, 'LUCRO PRESUMIDO', 'the regime row of that very CNPJ');
    // A head office that is not order 0001 still comes first; a root without one is in CNPJ order.
    assert.deepEqual(
      (await list(ALNUM_CNPJS[2]!.toLowerCase())).body.data.map((c: { cnpj: string }) => c.cnpj),
      ALNUM_CNPJS,
    );
    assert.deepEqual(
      (await list(NO_HEAD_CNPJS[1]!)).body.data.map((c: { cnpj: string }) => c.cnpj),
      NO_HEAD_CNPJS,
    );
    assert.deepEqual(
      (await list(NEIGHBOURS[0]!)).body.data.map((c: { cnpj: string }) => c.cnpj),
      [NEIGHBOURS[0]],
    );
    // The formatted CNPJ typed with its slash.
    const slashed = await get(
      `${server.url}/api/v1/brazilian_companies/${formatCnpj(SERPRO_CNPJS[4]!)}/establishments?limit=2`,
      bearer(acct.token),
    );
    assert.equal(slashed.status, 200);
    assert.deepEqual(
      slashed.body.data.map((c: { cnpj: string }) => c.cnpj),
      SERPRO_CNPJS.slice(0, 2),
    );
  });

  test('paging through whole roots with limit=1 and limit=2: no gap, no duplicate, one call per page', async () => {
    for (const [cnpjs, limit] of [
      [SERPRO_CNPJS, 1],
      [SERPRO_CNPJS, 2],
      [SERPRO_CNPJS, 7],
      [SERPRO_CNPJS, 6],
      [ALNUM_CNPJS, 1],
      [ALNUM_CNPJS, 2],
      [NO_HEAD_CNPJS, 1],
    ] as const) {
      const { pages, calls } = await walk([...cnpjs], limit);
      assert.deepEqual(pages.flat(), cnpjs, `limit ${limit}: ${JSON.stringify(pages)}`);
      assert.equal(pages.length, Math.max(1, Math.ceil(cnpjs.length / limit)));
      assert.equal(calls, pages.length, 'one call of quota per page');
    }
  });

  test("a cursor that is not this listing's next_cursor: 400 naming cursor, not counted", async () => {
    const first = await list(SERPRO_CNPJS[0]!, '?limit=2');
    const cursor: string = first.body.next_cursor;
    const edited = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    const alnumCursor: string = (await list(ALNUM_CNPJS[0]!, '?limit=1')).body.next_cursor;
    const before = remaining(await list(SERPRO_CNPJS[0]!, '?limit=0'));
    for (const bad of [edited, cursor.slice(0, -1), `${cursor}A`, 'abc', '%00', 'x'.repeat(500), alnumCursor]) {
      const r = await list(SERPRO_CNPJS[1]!, `?limit=2&cursor=${encodeURIComponent(bad)}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.error, 'invalid_parameter');
      assert.match(r.body.message, /^O parâmetro cursor é inválido/);
      assert.equal(remaining(r), before);
    }
    // Another company's cursor on this one, and this one's on a neighbour.
    assert.equal((await list(NEIGHBOURS[1]!, `?cursor=${cursor}`)).status, 400);
    // An empty cursor is the first page.
    assert.deepEqual((await list(SERPRO_CNPJS[0]!, '?limit=2&cursor=')).body, first.body);
  });

  test('parameters: limit 1–100 (default 20), unknown ones refused, naming them; none counted', async () => {
    const base = remaining(await list('123'));
    for (const [qs, name] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?limit=1&limit=2', 'limit'],
      ['?page=2', 'page'],
      ['?limit=5&cnae=62', 'cnae'],
    ]) {
      const r = await list(SERPRO_CNPJS[0]!, qs);
      assert.equal(r.status, 400, qs);
      assert.equal(r.body.error, 'invalid_parameter');
      assert.ok(r.body.message.includes(`parâmetro ${name} `), r.body.message);
      assert.equal(remaining(r), base, qs);
    }
    assert.match(
      (await list(SERPRO_CNPJS[0]!, '?limit=0')).body.message,
      /^O parâmetro limit deve ser um número inteiro de 1 a 100\.$/,
    );
    assert.equal((await list(SERPRO_CNPJS[0]!, '?limit=100')).status, 200);
    assert.equal(
      (await list(SERPRO_CNPJS[0]!, `?api_token=${acct.token}`)).status,
      200,
      "the token parameter is every route's",
    );
  });

  test('unknown CNPJ: 404 not_found, counted; invalid CNPJ: 400, not counted; no token: 401', async () => {
    const absent = makeCnpj('33683111', '0099');
    const r0 = await list(SERPRO_CNPJS[0]!);
    const r = await list(absent);
    assert.deepEqual([r.status, r.body.error], [404, 'not_found']);
    assert.equal(remaining(r), remaining(r0) - 1);
    const bad = await list('33683111000281');
    assert.deepEqual([bad.status, bad.body.error], [400, 'invalid_cnpj']);
    assert.equal(remaining(bad), remaining(r));
    const none = await get(url(SERPRO_CNPJS[0]!));
    assert.deepEqual([none.status, none.body.error], [401, 'missing_token']);
    assert.equal(none.headers.get('x-ratelimit-remaining'), null);
  });

  test('quota: exact per page, 429 when used up, and on disk before the answer', async () => {
    const small = await makeAccount(dataDir, 'Pequeno', { quota: 2 });
    const a = await list(SERPRO_CNPJS[0]!, '?limit=1', small);
    assert.equal(remaining(a), 1);
    assert.equal(await withAppStore(dataDir, async (db) => (await currentUsage(db, small.accountId)).calls), 1);
    const b = await list(SERPRO_CNPJS[0]!, `?limit=1&cursor=${a.body.next_cursor}`, small);
    assert.equal(remaining(b), 0);
    const c = await list(SERPRO_CNPJS[0]!, `?limit=1&cursor=${b.body.next_cursor}`, small);
    assert.deepEqual([c.status, c.body.error, remaining(c)], [429, 'quota_exceeded', 0]);
    assert.ok(Number(c.headers.get('retry-after')) >= 1);
    assert.equal(await withAppStore(dataDir, async (db) => (await currentUsage(db, small.accountId)).calls), 2);
    assert.ok(
      server.lines.some((l) => l.includes('/establishments?limit=1 200') && l.endsWith(`account=${small.accountId}`)),
      'logged with its account',
    );
  });

  test("HEAD: the GET's status and headers, no body, counted like a GET", async () => {
    const target = url(SERPRO_CNPJS[2]!, '?limit=3');
    const g = await get(target, bearer(acct.token));
    const h = await fetch(target, { method: 'HEAD', ...bearer(acct.token) });
    assert.equal(h.status, 200);
    assert.equal(await h.text(), '');
    assert.equal(h.headers.get('content-length'), g.headers.get('content-length'));
    assert.equal(h.headers.get('content-type'), g.headers.get('content-type'));
    assert.equal(remaining(h), remaining(g) - 1);
  });

  test('the statements walk the cnpj index (keyset: page 1,000 costs what page 1 costs)', async () => {
    const snap = (await active(dataDir))!;
    const db = openSqlite(':memory:');
    try {
      attachSnapshot(db, snap.dir);
      const sql = rootRowsSql(MAPPED_COLUMNS);
      for (const [name, params] of [
        ['headOffice', ['33683111', '33683111~']],
        ['after', ['33683111', '33683111~', null, 3]],
      ] as const) {
        const plan = db
          .prepare(`EXPLAIN QUERY PLAN ${sql[name]}`)
          .all(...params)
          .map((r) => (r as { detail: string }).detail)
          .join(' | ');
        assert.match(plan, /SEARCH e USING INDEX establishments_by_cnpj \(cnpj>\? AND cnpj<\?\)/, `${name}: ${plan}`);
        assert.doesNotMatch(plan, /TEMP B-TREE/, `${name}: no sort`);
      }
    } finally {
      db.close();
    }
    assert.ok(path.isAbsolute(snap.dir));
  });
});
