// GET /api/v1/brazilian_companies (search) and /count against the committed demo-400 month,
// imported for real, compared with the brute-force oracle of the engine's tests: filters, paging
// through a whole result set, parameters refused naming them, missing_filter, quota (one call per
// answered page, none for a refusal), and 503 search_unavailable on a month imported without search.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CompanySchema } from '../../../src/domain/company/schema.ts';
import type { CompanyFilters } from '../../../src/domain/search/filters.ts';
import { runImport } from '../../../importer/run.ts';
import { DEMO_400 } from '../../fixtures/index.ts';
import { CSV_COLUMNS } from '../../../src/server/api/csv.ts';
import { parseCsv } from './csv-parse.ts';
import { Oracle } from '../../domain/search/oracle.ts';
import { startDemo400, stopDemo400, walkPages, type Demo400 } from './search-walk.ts';
import { bearer, get, makeAccount, serve, tempDataDir, type TestAccount, type TestServer } from '../helpers.ts';

FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v));

describe('company search and count', () => {
  let server: TestServer;
  let acct: TestAccount;
  let oracle: Oracle;
  let dataDir: string;
  const search = (qs: string, a: TestAccount = acct) =>
    get(`${server.url}/api/v1/brazilian_companies${qs}`, bearer(a.token));
  const count = (qs: string) => get(`${server.url}/api/v1/brazilian_companies/count${qs}`, bearer(acct.token));
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));

  /** Every page of `qs` with `limit`: the CNPJs, and the calls they cost. */
  async function walk(qs: string, limit: number): Promise<{ cnpjs: string[]; pages: number; calls: number }> {
    const { items, pages, calls } = await walkPages<{ cnpj: string }>(search, qs, limit);
    return { cnpjs: items.map((c) => c.cnpj), pages, calls };
  }

  let demo: Demo400 | undefined;
  before(async () => {
    demo = await startDemo400();
    ({ dataDir, oracle, acct, server } = demo);
  });
  after(() => stopDemo400(demo));

  test("filters give the oracle's CNPJs, paged to the end with no duplicate and no gap; count agrees", async () => {
    const cases: [string, CompanyFilters][] = [
      ['?uf=SP', { uf: ['SP'] }],
      ['?uf=rj,MG&situacao_cadastral=ativa', { uf: ['rj', 'MG'], situacao_cadastral: ['ativa'] }],
      ['?matriz_filial=filial&porte=01,03', { matriz_filial: 'filial', porte: [1, 3] }],
      ['?cnae=47&cnae_secundario=true', { cnae: ['47'], cnae_secundario: true }],
      ['?q=ltda&opc_simples=true', { q: 'ltda', opc_simples: true }],
      [
        '?inicio_atividade_min=2010-01-01&capital_social_max=50000.5',
        { inicio_atividade_min: '2010-01-01', capital_social_max: 50000.5 },
      ],
    ];
    for (const [qs, f] of cases) {
      const expected = oracle.companies(f);
      assert.ok(expected.length > 3, `${qs} should match several (${expected.length})`);
      const { cnpjs, pages, calls } = await walk(qs, 3);
      assert.deepEqual(cnpjs, expected, qs);
      assert.equal(new Set(cnpjs).size, cnpjs.length, `no duplicate in ${qs}`);
      assert.equal(calls, pages, `one call per page: ${qs}`);
      const c = await count(qs);
      assert.equal(c.status, 200);
      assert.deepEqual(c.body, { count: expected.length, exact: true }, qs);
    }
  });

  test('the query string maps onto every filter: município by code and by name, accents, CEP, codes, flags', async () => {
    const top = oracle.db
      .prepare(
        'SELECT e.municipio AS code, m.description AS name, e.uf AS uf, e.cep AS cep FROM est.establishments e JOIN reg.municipios m ON m.code = e.municipio GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
      )
      .get() as { code: number; name: string; uf: string; cep: number };
    const name = top.name.toLowerCase();
    const nat = oracle.db
      .prepare('SELECT natureza_juridica FROM reg.companies GROUP BY 1 ORDER BY count(*) DESC LIMIT 1')
      .pluck()
      .get() as number;
    const word = (
      oracle.db
        .prepare("SELECT razao_social FROM reg.companies WHERE razao_social LIKE '% %' ORDER BY basico LIMIT 1")
        .pluck()
        .get() as string
    ).split(' ')[0]!;
    const cases: [string, CompanyFilters][] = [
      [`?municipio=${String(top.code).padStart(4, '0')}`, { municipio: [top.code] }],
      [`?municipio=${encodeURIComponent(name)}&uf=${top.uf.toLowerCase()}`, { municipio: [name], uf: [top.uf] }],
      [`?cep=${String(top.cep).padStart(8, '0').slice(0, 3)}`, { cep: [String(top.cep).padStart(8, '0').slice(0, 3)] }],
      [`?natureza_juridica=${nat}&has_email=true`, { natureza_juridica: [nat], has_email: true }],
      ['?has_telefone=false&opc_mei=false', { has_telefone: false, opc_mei: false }],
      [`?q=${encodeURIComponent(word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, ''))}`, { q: word }],
      [`?q=${encodeURIComponent(word.slice(0, 3))}`, { q: word.slice(0, 3) }],
    ];
    for (const [qs, f] of cases) {
      const expected = oracle.companies(f);
      assert.ok(expected.length > 0, `${qs} should match (${expected.length})`);
      assert.deepEqual((await walk(qs, 50)).cnpjs, expected, qs);
      const c = (await count(qs)).body;
      assert.ok(c.exact ? c.count === expected.length : c.count <= expected.length, `${qs}: ${JSON.stringify(c)}`);
    }
    // A município name that does not exist selects nothing (or is refused naming it).
    const none = await search('?municipio=cidade%20inexistente&uf=SP');
    assert.ok(
      none.status === 200 ? none.body.data.length === 0 : none.body.message.includes('parâmetro municipio'),
      JSON.stringify(none.body),
    );
  });

  test("each item is the lookup's company object", async () => {
    const r = await search('?uf=SP&limit=5');
    assert.equal(r.body.data.length, 5);
    for (const company of r.body.data) {
      assert.ok(Value.Check(CompanySchema, company), company.cnpj);
      const lookup = await get(`${server.url}/api/v1/brazilian_companies/${company.cnpj}/company`, bearer(acct.token));
      assert.deepEqual(company, lookup.body.company);
    }
  });

  test('missing_filter, bad values, unknown parameters, foreign cursors: 400, not counted', async () => {
    const base = remaining(await search(''));
    for (const qs of ['', '?limit=5', '?cnae_secundario=true', '?uf=']) {
      for (const r of [await search(qs), await count(qs.replace('limit=5', ''))]) {
        assert.deepEqual([r.status, r.body.error], [400, 'missing_filter'], qs);
        assert.equal(remaining(r), base);
      }
    }
    const spCursor: string = (await search('?uf=SP&limit=2')).body.next_cursor;
    const afterOne = base - 1;
    for (const [qs, name] of [
      ['?uf=SPX', 'uf'],
      ['?uf=SP&limit=101', 'limit'],
      ['?situacao_cadastral=aberta', 'situacao_cadastral'],
      ['?cep=1', 'cep'],
      ['?inicio_atividade_min=2020-02-30', 'inicio_atividade_min'],
      ['?opc_mei=sim', 'opc_mei'],
      ['?uf=SP&page=2', 'page'],
      ['?uf=SP&uf=RJ', 'uf'],
      ['?q=%21%21', 'q'],
      [`?uf=RJ&cursor=${spCursor}`, 'cursor'],
      ['?uf=SP&cursor=abc', 'cursor'],
    ]) {
      const r = await search(qs);
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_parameter'], `${qs}: ${JSON.stringify(r.body)}`);
      assert.ok(r.body.message.includes(`parâmetro ${name} `), r.body.message);
      assert.equal(remaining(r), afterOne, qs);
    }
    assert.equal((await count('?uf=SP&limit=5')).status, 400, 'count takes no paging parameters');
  });

  test('format=csv: the same page as CSV, the next cursor in X-Next-Cursor, usable both ways; one call', async () => {
    const qs = '?uf=SP&situacao_cadastral=ativa,baixada&limit=4';
    const json = await search(qs);
    const r = await fetch(`${server.url}/api/v1/brazilian_companies${qs}&format=csv`, bearer(acct.token));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(Number(r.headers.get('x-ratelimit-remaining')), remaining(json) - 1, 'one call');
    assert.equal(r.headers.get('x-next-cursor'), json.body.next_cursor);
    const rows = parseCsv(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await r.arrayBuffer()));
    assert.deepEqual(rows[0], CSV_COLUMNS);
    assert.deepEqual(
      rows.slice(1).map((row) => row[0]),
      json.body.data.map((c: { cnpj: string }) => c.cnpj),
    );
    const i = CSV_COLUMNS.indexOf('razao_social');
    assert.deepEqual(
      rows.slice(1).map((row) => row[i]),
      json.body.data.map((c: { razao_social: string }) => c.razao_social),
    );
    // The CSV's cursor continues the JSON listing and the other way round.
    const page2 = await search(`${qs}&cursor=${r.headers.get('x-next-cursor')}`);
    const csv2 = await fetch(
      `${server.url}/api/v1/brazilian_companies${qs}&format=csv&cursor=${json.body.next_cursor}`,
      bearer(acct.token),
    );
    assert.deepEqual(
      parseCsv(await csv2.text().then((t) => `\uFEFF${t}`))
        .slice(1)
        .map((row) => row[0]),
      page2.body.data.map((c: { cnpj: string }) => c.cnpj),
    );
    // The last page has no X-Next-Cursor; a bad format is refused.
    let cur = '';
    for (
      let p = await search('?uf=SP&limit=100');
      p.body.next_cursor !== null;
      p = await search(`?uf=SP&limit=100${cur}`)
    )
      cur = `&cursor=${p.body.next_cursor}`;
    const last = await fetch(
      `${server.url}/api/v1/brazilian_companies?uf=SP&limit=100&format=csv${cur}`,
      bearer(acct.token),
    );
    assert.equal(last.status, 200);
    assert.equal(last.headers.get('x-next-cursor'), null);
    assert.equal((await search('?uf=SP&format=xlsx')).body.error, 'invalid_parameter');
  });

  test('count with q past its bound: {count: bound, exact: false}, one call; under it, or without q, exact', async () => {
    const ltda = oracle.companies({ q: 'ltda' }).length;
    const sp = oracle.companies({ uf: ['SP'] }).length;
    const under = oracle.companies({ q: 'ltda', uf: ['SP'] }).length;
    const bound = Math.min(Math.floor(ltda / 2), sp - 1);
    assert.ok(bound > under && under > 0, `a bound between the counts (ltda ${ltda}, uf=SP ${sp}, ltda+SP ${under})`);
    // The same month, served with a small bound: the default (100,000) is past any fixture.
    const bounded = await serve(dataDir, { countBound: bound });
    try {
      const at = (qs: string) => get(`${bounded.url}/api/v1/brazilian_companies/count${qs}`, bearer(acct.token));
      const before = remaining(await at('?uf=SP&limit=1'));
      const r = await at('?q=ltda');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { count: bound, exact: false });
      assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(remaining(r), before - 1, 'one call, as an exact count');
      assert.ok(
        bounded.lines.some((l) => l.includes('/api/v1/brazilian_companies/count?q=ltda 200')),
        'logged',
      );
      assert.deepEqual((await at('?q=ltda&uf=SP')).body, { count: under, exact: true }, 'under the bound: exact');
      assert.deepEqual((await at('?uf=SP')).body, { count: sp, exact: true }, 'without q the bound does not apply');
      // The default server counts the same q to the end.
      assert.deepEqual((await count('?q=ltda')).body, { count: ltda, exact: true });
    } finally {
      await bounded.close();
    }
  });

  test('relevance over HTTP: the exact name first, group=company, order=cnpj, suggest; each one call', async () => {
    const before = remaining(await search('?uf=SP&limit=1'));
    const name = 'OPEN KNOWLEDGE BRASIL';
    const r = await search(`?q=${encodeURIComponent('open knowledge brasil')}&group=company&limit=5`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data[0].razao_social, name);
    assert.ok(r.body.data[0].estabelecimentos_encontrados >= 1);
    assert.equal(new Set(r.body.data.map((c: { cnpj: string }) => c.cnpj.slice(0, 8))).size, r.body.data.length);
    // A letter off, and the joined words, still find it first.
    for (const q of ['open knowlege brasil', 'openknowledge brasil'])
      assert.equal((await search(`?q=${encodeURIComponent(q)}&limit=1`)).body.data[0]?.razao_social, name, q);
    // order=cnpj: the establishments in CNPJ order; group is refused there, naming it.
    const byCnpj = await search('?q=brasil&order=cnpj&limit=20');
    const cnpjs = byCnpj.body.data.map((c: { cnpj: string }) => c.cnpj);
    assert.deepEqual(cnpjs, [...cnpjs].sort());
    const refused = await search('?q=brasil&order=cnpj&group=company');
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /group/);
    const suggest = await get(
      `${server.url}/api/v1/brazilian_companies/suggest?q=${encodeURIComponent('open know')}&limit=3`,
      bearer(acct.token),
    );
    assert.equal(suggest.status, 200, JSON.stringify(suggest.body));
    assert.deepEqual(Object.keys(suggest.body.data[0]).sort(), [
      'cnpj',
      'municipio',
      'nome_fantasia',
      'razao_social',
      'situacao_cadastral',
      'uf',
    ]);
    assert.equal(suggest.body.data[0].razao_social, name);
    assert.ok(suggest.body.data.length <= 3);
    const tooMany = await get(`${server.url}/api/v1/brazilian_companies/suggest?q=open&limit=21`, bearer(acct.token));
    assert.equal(tooMany.status, 400);
    // Four searches and the suggest answered after the first call: five calls; the refusals counted nothing.
    assert.equal(before - remaining(suggest), 5);
  });

  test('quota: one call per answered request, 429 when used up', async () => {
    const small = await makeAccount(dataDir, 'Pequeno', { quota: 1 });
    const a = await search('?uf=SP&limit=1', small);
    assert.deepEqual([a.status, remaining(a)], [200, 0]);
    const b = await search(`?uf=SP&limit=1&cursor=${a.body.next_cursor}`, small);
    assert.deepEqual([b.status, b.body.error], [429, 'quota_exceeded']);
    assert.ok(
      server.lines.some(
        (l) => l.includes('/api/v1/brazilian_companies?uf=SP&limit=1 200') && l.endsWith(`account=${small.accountId}`),
      ),
      'logged with its account',
    );
  });
});

test('a month imported without search: 503 search_unavailable, not counted; lookups still work', async () => {
  const dataDir = tempDataDir();
  const summary = await runImport({ dataDir, inputs: [DEMO_400], month: '2026-09', allowPartial: true, search: false });
  const oracle = new Oracle(summary.dir);
  const some = oracle.companies({ uf: ['SP'] })[0]!;
  oracle.close();
  const acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
  const server = await serve(dataDir);
  try {
    for (const p of ['/api/v1/brazilian_companies?uf=SP', '/api/v1/brazilian_companies/count?uf=SP']) {
      const r = await get(server.url + p, bearer(acct.token));
      assert.deepEqual([r.status, r.body.error], [503, 'search_unavailable'], p);
      assert.equal(
        Number(r.headers.get('x-ratelimit-remaining')),
        Number(r.headers.get('x-ratelimit-limit')),
        'not counted',
      );
    }
    assert.equal(
      (await get(`${server.url}/api/v1/brazilian_companies/${some}/company`, bearer(acct.token))).status,
      200,
    );
  } finally {
    await server.close();
  }
});
