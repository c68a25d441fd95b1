// The web app's Consulta page against the demo-400 month imported for real: the form, a page of
// results as the API gives it, paging by cursor, the record page, the CSV; one call of the
// account's quota per results page, record and CSV (read as the home page reads it), none for a
// refusal; the refusals in Portuguese.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createUser } from '../../../src/domain/accounts/users.ts';
import { spDay } from '../../../src/domain/metering/time.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { runImport } from '../../../importer/run.ts';
import { openAppDb } from '../../../src/storage/app/sqlite.ts';
import { DEMO_400 } from '../../fixtures/index.ts';
import { bearer, get, makeAccount, serve, tempDataDir, withAppStore, type TestServer } from '../helpers.ts';
import { WebClient } from './client.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

const PASSWORD = 'senha-segura-123';
const escapeHtml = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

async function user(dataDir: string, accountId: number, email: string) {
  const app = await openAppDb(dataDir);
  try {
    await createUser(sqliteStore(app), { accountId, email, password: PASSWORD, role: 'member' });
  } finally {
    await app.close();
  }
}

const rowsOf = (page: string) =>
  [...page.matchAll(/href="\/api-de-cnpj\/consulta\/([0-9A-Z]{14})"/g)].map((m) => m[1]!);
const nextOf = (page: string) => /id="proxima" href="([^"]+)"/.exec(page)?.[1]?.replace(/&amp;/g, '&') ?? null;

describe('Consulta page on demo-400', () => {
  let dataDir: string;
  let server: TestServer;
  let web: WebClient;
  let accountId: number;
  let token: string;
  const used = () => withAppStore(dataDir, async (s) => (await currentUsage(s, accountId)).calls);

  before(async () => {
    dataDir = tempDataDir();
    await runImport({ dataDir, inputs: [DEMO_400], month: '2026-09', allowPartial: true });
    const acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
    accountId = acct.accountId;
    token = acct.token;
    await user(dataDir, accountId, 'membro@cliente.com.br');
    server = await serve(dataDir);
    web = new WebClient(server.url);
    assert.equal((await web.login('membro@cliente.com.br', PASSWORD)).status, 303);
  });
  after(async () => {
    await web?.close();
    await server?.close();
  });

  test('the form (no call spent), results as the API pages them, next page, one call per page', async () => {
    const before = await used();
    const empty = await web.get('/api-de-cnpj/consulta');
    assert.equal(empty.status, 200);
    const form = await empty.text();
    for (const name of ['q', 'uf', 'municipio', 'cnae', 'situacao_cadastral'])
      assert.match(form, new RegExp(`name="${name}"`));
    assert.match(form, /aria-current="page">Consulta/);
    assert.equal(await used(), before, 'the empty form costs nothing');

    // All the UF's companies through the pages, as the API pages them.
    const api = await get(`${server.url}/api/v1/brazilian_companies?uf=SP&limit=100`, bearer(token));
    const expected: string[] = api.body.data.map((c: { cnpj: string }) => c.cnpj);
    const calls = (await used()) - before;
    assert.equal(calls, 1);
    const seen: string[] = [];
    let path: string | null = '/api-de-cnpj/consulta?q=&uf=SP&municipio=&cnae=&situacao_cadastral=';
    let pages = 0;
    while (path !== null && pages < 5) {
      const r = await web.get(path);
      assert.equal(r.status, 200);
      const page = await r.text();
      pages++;
      seen.push(...rowsOf(page));
      assert.equal((await used()) - before, calls + pages, 'one call per results page');
      if (rowsOf(page).length) assert.match(page, /id="baixar-csv"/);
      path = nextOf(page);
    }
    assert.ok(pages >= 2, 'several pages');
    assert.deepEqual(seen, expected.slice(0, seen.length));
    assert.equal(new Set(seen).size, seen.length);
  });

  test('município by name with UF, CNAE prefix, situação; the row shows the formatted CNPJ and names', async () => {
    const api = await get(
      `${server.url}/api/v1/brazilian_companies?uf=SP&situacao_cadastral=ativa&limit=1`,
      bearer(token),
    );
    const c = api.body.data[0];
    const qs = new URLSearchParams({
      uf: 'SP',
      municipio: c.municipio.toLowerCase(),
      cnae: c.cnae_fiscal.slice(0, 4),
      situacao_cadastral: 'ativa',
    });
    const page = await (await web.get(`/api-de-cnpj/consulta?${qs}`)).text();
    assert.ok(rowsOf(page).includes(c.cnpj), 'the company is found');
    assert.ok(page.includes(c.cnpj_pretty));
  });

  test('the record page: one call, the company fields and sócios; the CSV: one call, the page', async () => {
    const api = await get(`${server.url}/api/v1/brazilian_companies?uf=RJ&limit=5`, bearer(token));
    const cnpj: string = api.body.data[0].cnpj;
    let n = await used();
    const rec = await web.get(`/api-de-cnpj/consulta/${cnpj}`);
    assert.equal(rec.status, 200);
    const text = await rec.text();
    assert.match(text, /<dt>razao_social<\/dt>/);
    assert.match(text, /Sócios/);
    assert.equal(await used(), n + 1);

    n = await used();
    const csv = await web.get('/api-de-cnpj/consulta.csv?uf=RJ');
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type')!, /^text\/csv/);
    const bytes = Buffer.from(await csv.arrayBuffer());
    // Spreadsheet form: BOM, `;` header; the first data row is the first company of the page.
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const body = bytes.subarray(3).toString('utf8');
    assert.ok(body.startsWith('cnpj;'));
    assert.equal(body.split('\r\n')[1]!.split(';')[0], cnpj);
    assert.equal(await used(), n + 1);

    n = await used();
    const missing = await web.get('/api-de-cnpj/consulta/00000000000191');
    assert.equal(missing.status, 404, 'a CNPJ not in the registry is counted, as in the API');
    assert.equal(await used(), n + 1);
  });

  test('refusals in Portuguese, none counted: bad value, bad cursor, bad CNPJ', async () => {
    await get(`${server.url}/api/v1/brazilian_companies?q=--`, bearer(token));
    const n = await used();
    const bad = await web.get('/api-de-cnpj/consulta?cnae=4x');
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /O parâmetro cnae deve ser/);
    const cur = await web.get('/api-de-cnpj/consulta?uf=SP&cursor=xyz');
    assert.equal(cur.status, 400);
    // A value the engine refuses (a name with no word): the API's 400 and its sentence.
    const apiWordless = await get(`${server.url}/api/v1/brazilian_companies?q=--`, bearer(token));
    const wordless = await web.get('/api-de-cnpj/consulta?q=--');
    assert.deepEqual([wordless.status, apiWordless.status], [400, 400]);
    assert.ok((await wordless.text()).includes(apiWordless.body.message.replace(/"/g, '&quot;')));
    const cnpj = await web.get('/api-de-cnpj/consulta/123');
    assert.equal(cnpj.status, 400);
    const none = await web.get('/api-de-cnpj/consulta?cursor=abc');
    assert.equal(none.status, 400, 'a cursor with no filter: missing filter');
    assert.equal(await used(), n);
  });

  test('the home page\'s usage chart counts the Consulta calls, in their own "Consulta (web)" column, to the call', async () => {
    const today = spDay(new Date());
    const dayLabel = `${today.slice(8, 10)}/${today.slice(5, 7)}`;
    const num = (s: string | undefined) => Number((s ?? '0').replace(/\./g, ''));
    async function chart() {
      const html = await (await web.get('/api-de-cnpj')).text();
      const fig = html.slice(html.indexOf('chart-figure'));
      const row = new RegExp(
        `<tr><td>${dayLabel}</td><td class="num">([\\d.]+)</td>(?:<td class="num">([\\d.]+)</td>)?</tr>`,
      ).exec(fig);
      assert.ok(row, `today's row in ${fig.slice(0, 2000)}`);
      return { all: num(row[1]), web: num(row[2]), fig };
    }
    const a = await chart();
    const api = await get(`${server.url}/api/v1/brazilian_companies?uf=RJ&limit=1`, bearer(token));
    assert.equal((await web.get('/api-de-cnpj/consulta?uf=SP')).status, 200);
    assert.equal((await web.get(`/api-de-cnpj/consulta/${api.body.data[0].cnpj}`)).status, 200);
    assert.equal((await web.get('/api-de-cnpj/consulta.csv?uf=MG')).status, 200);
    assert.equal((await web.get('/api-de-cnpj/consulta?cnae=4x')).status, 400, 'refused: not counted anywhere');
    const b = await chart();
    assert.deepEqual(
      [b.all - a.all, b.web - a.web],
      [4, 3],
      'the API call and the three Consulta calls; the Consulta ones in their column',
    );
    assert.match(b.fig, /<th scope="col">Consulta \(web\)<\/th>/);
    // The account was made today: the chart's day is its whole month, exactly as the quota counts it.
    assert.equal(b.all, await used());
    assert.match(b.fig, new RegExp(`${b.all} chamadas em [^;<]*\\(${b.web} pela Consulta \\(web\\)\\);`));
  });
});

test('Consulta refusals: plan without API, quota exhausted, search unavailable', async () => {
  const dataDir = tempDataDir();
  await runImport({ dataDir, inputs: [DEMO_400], month: '2026-09', allowPartial: true, search: false });
  const noApi = await makeAccount(dataDir, 'Sem API', { apiIncluded: false });
  const small = await makeAccount(dataDir, 'Pequena', { quota: 1 });
  await user(dataDir, noApi.accountId, 'a@sem-api.com.br');
  await user(dataDir, small.accountId, 'b@pequena.com.br');
  const server = await serve(dataDir);
  const a = new WebClient(server.url);
  const b = new WebClient(server.url);
  try {
    await a.login('a@sem-api.com.br', PASSWORD);
    const r = await a.get('/api-de-cnpj/consulta?uf=SP');
    assert.equal(r.status, 403);
    assert.match(await r.text(), /não inclui/);

    await b.login('b@pequena.com.br', PASSWORD);
    const s = await b.get('/api-de-cnpj/consulta?uf=SP');
    assert.equal(s.status, 503, 'search unavailable on a month imported without search');
    // One order of checks for both (countedSearch): a request wrong in several ways at once gets
    // the same first refusal, status and sentence, from the API and from the Consulta page.
    for (const qs of ['cnae=4x', 'cursor=abc', 'uf=SP', 'cnae=4x&cursor=abc']) {
      const api = await get(`${server.url}/api/v1/brazilian_companies?${qs}`, bearer(small.token));
      const page = await b.get(`/api-de-cnpj/consulta?${qs}`);
      assert.equal(page.status, api.status, qs);
      assert.ok((await page.text()).includes(escapeHtml(api.body.message)), `${qs}: ${api.body.message}`);
    }
    const some = (await get(`${server.url}/api/v1/brazilian_companies/33683111000280/company`, bearer(small.token)))
      .status;
    assert.ok(some === 200 || some === 404, 'the one call of the quota spent through the API');
    const q = await b.get('/api-de-cnpj/consulta/33683111000280');
    assert.equal(q.status, 429);
    assert.match(await q.text(), /cota/i);
  } finally {
    await a.close();
    await b.close();
    await server.close();
  }
});
