// The Monitoramento page over plain HTTP: every user of the account adds and removes (CSRF like
// every form), invalid CNPJs and the plan's limit refused with the API's sentences, pages of the
// list, a suspended account read-only, another account's list invisible, and the newest recorded
// month's changes of the watchlist read from a history.db written while the server runs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { addWatched } from '../../../src/domain/watchlist/add.ts';
import { watchedCnpjs } from '../../../src/domain/watchlist/read.ts';
import { openHistoryDb, writeMonth } from '../../../src/storage/history/db.ts';
import { WebClient } from './client.ts';
import { PASSWORD, seedAccount, startTestServer, type TestServer } from './helpers.ts';

const NOW = new Date('2026-11-20T15:00:00Z');
const PATH = '/api-de-cnpj/monitoramento';
let server: TestServer;
/** The test's app.db handle as a store (the domain's watchlist functions take one). */
const store = () => ({ backend: 'sqlite' as const, db: server.app.db });
let acmeId: number;
let suspendedId: number;

async function loggedIn(email: string): Promise<WebClient> {
  const c = new WebClient(server.url);
  assert.equal((await c.login(email, PASSWORD)).status, 303, email);
  return c;
}
const text = async (r: Response | { text(): Promise<string> }) => (await r.text()).replace(/\s+/g, ' ');

before(async () => {
  server = await startTestServer({ now: () => NOW });
  await setPlan(store(), 'Pequeno', { monthlyQuota: 10, watchlistLimit: 3 });
  const acme = await seedAccount(server.app, 'Acme', 'Pequeno');
  acmeId = acme.account.id;
  await acme.user('admin@acme.com.br', 'billing_admin');
  await acme.user('membro@acme.com.br', 'member');
  const other = await seedAccount(server.app, 'Outra', 'Ouro');
  await other.user('admin@outra.com.br', 'billing_admin');
  const s = await seedAccount(server.app, 'Suspensa', 'Ouro');
  suspendedId = s.account.id;
  await s.user('admin@suspensa.com.br', 'billing_admin');
  await addWatched(store(), suspendedId, [makeCnpj('55555555', '0001')], NOW);
  await suspendAccount(store(), 'Suspensa');
});
after(async () => {
  await server?.close();
});

describe('Monitoramento page', () => {
  test('a member adds (formatted input), sees it listed with the use of the limit, removes it', async () => {
    const c = await loggedIn('membro@acme.com.br');
    let page = await text(await c.get(PATH));
    assert.match(page, /<h1>Monitoramento<\/h1>/);
    assert.match(page, /aria-current="page">Monitoramento</);
    assert.match(page, /id="uso-lista">0 <small>de 3 CNPJs/);
    assert.match(page, /id="lista-vazia"/);
    assert.match(page, /id="sem-historico"/);
    const csrf_token = await c.csrf(PATH);
    let r = await c.post(PATH, { csrf_token, cnpj: '33.683.111/0002-80' });
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), PATH);
    page = await text(await c.get(PATH));
    assert.match(page, /CNPJ 33\.683\.111\/0002-80 adicionado à lista\./);
    assert.match(page, /id="uso-lista">1 <small>de 3 CNPJs/);
    assert.match(
      page,
      /<th scope="row" data-label="CNPJ" class="cnpj">33\.683\.111\/0002-80<\/th> <td data-label="Desde">20\/11\/2026<\/td>/,
    );
    r = await c.post(PATH, { csrf_token, cnpj: '33683111000280' });
    assert.equal(r.status, 303);
    assert.match(await text(await c.get(PATH)), /já estava na lista/);
    r = await c.post(`${PATH}/remover`, { csrf_token, cnpj: '33683111000280' });
    assert.equal(r.status, 303);
    page = await text(await c.get(PATH));
    assert.match(page, /removido da lista/);
    assert.deepEqual(await watchedCnpjs(store(), acmeId), []);
    r = await c.post(`${PATH}/remover`, { csrf_token, cnpj: '33683111000280' });
    assert.equal(r.status, 303);
    assert.match(await text(await c.get(PATH)), /não está na lista de monitoramento/);
  });

  test('without the CSRF token nothing changes (403)', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const r = await c.post(PATH, { cnpj: '33683111000280' });
    assert.equal(r.status, 403);
    const r2 = await c.post(PATH, { csrf_token: 'x', cnpj: '33683111000280' });
    assert.equal(r2.status, 403);
    assert.deepEqual(await watchedCnpjs(store(), acmeId), []);
    assert.equal((await new WebClient(server.url).get(PATH)).status, 303, 'no session: to the login page');
  });

  test('invalid CNPJ and the plan limit: 422 with the sentence, the typed value kept, nothing added', async () => {
    const c = await loggedIn('admin@acme.com.br');
    const csrf_token = await c.csrf(PATH);
    let r = await c.post(PATH, { csrf_token, cnpj: '33.683.111/0002-81' });
    assert.equal(r.status, 422);
    let page = await text(r);
    assert.match(page, /id="adicionar-erro"><p>CNPJ inválido/);
    assert.match(page, /value="33\.683\.111\/0002-81"/);
    for (const base of ['10000001', '10000002', '10000003'])
      assert.equal((await c.post(PATH, { csrf_token, cnpj: makeCnpj(base, '0001') })).status, 303);
    r = await c.post(PATH, { csrf_token, cnpj: makeCnpj('10000004', '0001') });
    assert.equal(r.status, 422);
    page = await text(r);
    assert.match(
      page,
      /Este CNPJ não cabe na lista de monitoramento: o plano Pequeno permite 3 CNPJs e restam 0 vagas\. Nada foi adicionado\./,
    );
    assert.match(page, /id="limite-atingido"/);
    assert.equal((await watchedCnpjs(store(), acmeId)).length, 3);
    server.app.sqlite.prepare('DELETE FROM watchlist WHERE account_id = ?').run(acmeId);
  });

  test('pages of 50 by CNPJ; the remove form keeps the page; a foreign cursor shows the first page', async () => {
    await setPlan(store(), 'Pequeno', { watchlistLimit: 200 });
    const all = Array.from({ length: 120 }, (_, i) => makeCnpj(String(20_000_000 + i), '0001')).sort();
    await addWatched(store(), acmeId, all, NOW);
    const c = await loggedIn('admin@acme.com.br');
    const seen: string[] = [];
    let url: string | null = PATH;
    let pages = 0;
    while (url) {
      const page = await text(await c.get(url));
      seen.push(...[...page.matchAll(/<tr data-cnpj="([0-9A-Z]{14})">/g)].map((m) => m[1]!));
      const next = /id="proxima" href="([^"]+)"/.exec(page);
      url = next ? next[1]!.replace(/&amp;/g, '&') : null;
      if (pages++ === 1) {
        // On the second page: remove its first row, back on the same page.
        const cursor = new URL(server.url + (url ?? PATH)).searchParams.get('cursor');
        assert.ok(cursor);
        const form =
          /<form method="post" action="([^"]+)" class="inline"><input type="hidden" name="csrf_token" value="([^"]+)"><input type="hidden" name="cnpj" value="([^"]+)">/.exec(
            page,
          )!;
        const r = await c.post(form[1]!.replace(/&amp;/g, '&'), { csrf_token: form[2]!, cnpj: form[3]! });
        assert.match(r.headers.get('location')!, /^\/api-de-cnpj\/monitoramento\?cursor=/);
      }
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, all);
    assert.equal((await watchedCnpjs(store(), acmeId)).length, 119);
    const page = await text(await c.get(`${PATH}?cursor=garbage`));
    assert.match(page, /<tr data-cnpj="20000000000/);
    server.app.sqlite.prepare('DELETE FROM watchlist WHERE account_id = ?').run(acmeId);
    await setPlan(store(), 'Pequeno', { watchlistLimit: 3 });
  });

  test("a suspended account sees its list but cannot change it; another account's list is not shown", async () => {
    const s = await loggedIn('admin@suspensa.com.br');
    const page = await text(await s.get(PATH));
    assert.match(page, /55\.555\.555\/0001-/);
    assert.match(page, /Conta suspensa/);
    assert.doesNotMatch(page, /Monitorar<\/button>|Remover<\/button>/);
    const csrf_token = /name="csrf_token" value="([^"]+)"/.exec(page)![1]!;
    assert.equal((await s.post(PATH, { csrf_token, cnpj: '33683111000280' })).status, 403);
    const o = await loggedIn('admin@outra.com.br');
    assert.doesNotMatch(await text(await o.get(PATH)), /55\.555\.555/);
  });

  test("the newest recorded month's changes of the watchlist, with Portuguese labels, antes → depois", async () => {
    const [a, b] = [makeCnpj('11222333', '0001'), makeCnpj('11222333', '0002')];
    const quiet = makeCnpj('44444444', '0001');
    await addWatched(store(), acmeId, [a, b, quiet], NOW);
    const c = await loggedIn('membro@acme.com.br');
    assert.match(await text(await c.get(PATH)), /id="sem-historico"/);
    // history.db appears while the server runs (the first recorded month).
    const db = openHistoryDb(server.dataDir);
    writeMonth(db, '2026-09', '2026-08', (insert) => {
      insert(a, 'alteracao', 'uf', '"SP"', '"RJ"');
      return { alteracao: 1 };
    });
    writeMonth(db, '2026-10', '2026-09', (insert) => {
      insert(a, 'alteracao', 'situacao_cadastral', '"ATIVA"', '"INAPTA"');
      insert(a, 'alteracao', 'data_situacao_cadastral', '"2020-01-02"', '"2026-10-05"');
      insert(
        '11222333',
        'alteracao',
        'socios',
        '[{"nome_socio":"ANA","qualificacao_socio":"Sócio-Administrador"}]',
        '[]',
      );
      insert(b, 'abertura', '', null, null);
      insert(makeCnpj('99999999', '0001'), 'encerramento', '', null, null);
      return { alteracao: 3, abertura: 1, encerramento: 1 };
    });
    db.close();
    const page = await text(await c.get(PATH));
    assert.match(page, /<h2 id="mudancas-titulo">Mudanças de outubro de 2026<\/h2>/);
    assert.match(page, /5 mudanças nos CNPJs monitorados\./);
    const rows = [
      ...page.matchAll(
        /<tr> <th scope="row" data-label="CNPJ" class="cnpj">([^<]+)<\/th> <td data-label="Tipo">([^<]+)<\/td> <td data-label="Campo">([^<]+)<\/td> <td data-label="Antes → depois" class="mudanca">(.*?)<\/td> <\/tr>/g,
      ),
    ].map((m) => [
      m[1],
      m[2],
      m[3],
      m[4]!
        .replace(/<[^>]+>/g, '')
        .replace(/passou a/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    ]);
    assert.deepEqual(rows, [
      ['11.222.333/0001-81', 'Alteração', 'Data da situação cadastral', '02/01/2020 → 05/10/2026'],
      ['11.222.333/0001-81', 'Alteração', 'Situação cadastral', 'ATIVA → INAPTA'],
      ['11.222.333/0001-81', 'Alteração', 'Sócios', 'ANA (Sócio-Administrador) → —'],
      ['11.222.333/0002-62', 'Abertura', '—', '—'],
      ['11.222.333/0002-62', 'Alteração', 'Sócios', 'ANA (Sócio-Administrador) → —'],
    ]);
    assert.doesNotMatch(page, /99\.999\.999/, 'a change of a CNPJ not watched');
  });
});
