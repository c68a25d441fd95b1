// GET /api/v1/changes and GET /api/v1/brazilian_companies/{cnpj}/history on a real server, over
// three imported synthetic months (2,000 companies evolved twice) whose differences are recorded
// by recordMonth. The expected feed is built here independently, from history.db's changes and
// the snapshots' rows (head office, attributes): every filter, whole-month walks with no
// duplicate and no gap, parameters, months, counting, and the history of both levels.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDump, type DumpManifest } from '../../../src/demo/generate.ts';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { feedPage, SCAN_BUDGET, type FeedKey } from '../../../src/domain/history/feed.ts';
import { FilterUnavailable, type FeedFilters } from '../../../src/domain/history/feed-filters.ts';
import { recordMonth } from '../../../importer/history/record.ts';
import { normalizeText } from '../../../src/domain/search/normalize.ts';
import { runImport } from '../../../importer/run.ts';
import { openHistoryDb, openHistoryReader } from '../../../src/storage/history/db.ts';
import { V3_COLUMNS } from '../../../src/storage/history/subjects.ts';
import type { ChangeRow } from '../../../src/storage/history/schema.ts';
import { attachSnapshot } from '../../../src/storage/snapshots/attach.ts';
import { openSqlite, type Sqlite } from '../../../src/storage/sqlite.ts';
import { snapshotDir } from '../../../scripts/evolve-check.ts';
import { bearer, get, makeAccount, serve, type TestAccount, type TestServer } from '../helpers.ts';

type Item = { cnpj: string; tipo: string; campo?: string; antes?: unknown; depois?: unknown };
const SIT: Record<number, string> = { 1: 'nula', 2: 'ativa', 3: 'suspensa', 4: 'inapta', 8: 'baixada' };
type Attrs = {
  uf: string;
  municipio: number;
  cnae: number;
  situacao: number;
  matriz: number;
  natureza: number;
  porte: number;
  simples: number;
  mei: number;
  cep: number | null;
  email: number;
  telefone: number;
  inicio: number | null;
  capital: number | null;
  cnaes: string | null;
  names: string;
};

describe('the change feed and a company history', () => {
  let dir: string;
  let dataDir: string;
  let server: TestServer;
  let acct: TestAccount;
  const months: DumpManifest[] = [];
  /** Per month: every item of the feed in order, with the attributes of its CNPJ. */
  const expected = new Map<string, (Item & { attrs: Attrs | null; level: 'est' | 'company' })[]>();
  let municipioName = '';

  const snap = (i: number) => ({ month: months[i].month, dir: snapshotDir(dataDir, months[i].month) });
  const feed = (qs: string, a = acct) => get(`${server.url}/api/v1/changes${qs}`, bearer(a.token));
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));

  /** Every page of a query; each page but the last full (no filter here leaves budget-short pages at this size). */
  async function walk(qs: string, limit = 100): Promise<{ items: Item[]; pages: number; month: string }> {
    const items: Item[] = [];
    let pages = 0;
    let cursor: string | null = null;
    let month: string;
    do {
      const r = await feed(`?${qs}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      month = r.body.month;
      pages++;
      items.push(...r.body.data);
      cursor = r.body.next_cursor;
      if (cursor !== null) assert.equal(r.body.data.length, limit);
    } while (cursor !== null);
    return { items, pages, month };
  }

  function reference(i: number) {
    const [old, neu] = [openSqlite(':memory:'), openSqlite(':memory:')];
    attachSnapshot(old, snap(i - 1).dir);
    attachSnapshot(neu, snap(i).dir);
    const attrs = (db: Sqlite, cnpj: string): Attrs | null =>
      (db
        .prepare(
          `SELECT e.uf, e.municipio, e.cnae_fiscal AS cnae, e.situacao_cadastral AS situacao, e.matriz_filial AS matriz, c.natureza_juridica AS natureza, c.porte,
             coalesce(s.opcao_simples = 'S', 0) AS simples, coalesce(s.opcao_mei = 'S', 0) AS mei,
             e.cep, coalesce(trim(e.email), '') <> '' AS email, e.telefone_1 IS NOT NULL OR e.telefone_2 IS NOT NULL AS telefone,
             e.data_inicio_atividade AS inicio, c.capital_social_cents AS capital, e.cnaes_secundarios AS cnaes,
             coalesce(c.razao_social, '') || ' ' || coalesce(e.nome_fantasia, '') AS names
           FROM est.establishments e LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8) LEFT JOIN reg.simples s ON s.basico = c.basico WHERE e.cnpj = ?`,
        )
        .get(cnpj) as Attrs | undefined) ?? null;
    const head = (db: Sqlite, base: string) =>
      (db
        .prepare(
          `SELECT cnpj FROM est.establishments WHERE substr(cnpj, 1, 8) = ? ORDER BY matriz_filial <> 1, cnpj LIMIT 1`,
        )
        .pluck()
        .get(base) as string | undefined) ?? null;
    const h = openHistoryDb(dataDir);
    const rows = h.prepare('SELECT * FROM changes WHERE month = ?').all(months[i].month) as ChangeRow[];
    h.close();
    const items = rows.map((r) => {
      const shown =
        r.cnpj.length === 14 ? r.cnpj : (head(neu, r.cnpj) ?? head(old, r.cnpj) ?? makeCnpj(r.cnpj, '0001'));
      const a = r.tipo === 'encerramento' ? attrs(old, shown) : (attrs(neu, shown) ?? attrs(old, shown));
      const item: Item =
        r.tipo === 'alteracao'
          ? { cnpj: shown, tipo: r.tipo, campo: r.campo, antes: JSON.parse(r.antes!), depois: JSON.parse(r.depois!) }
          : { cnpj: shown, tipo: r.tipo };
      return { ...item, attrs: a, level: r.cnpj.length === 14 ? ('est' as const) : ('company' as const) };
    });
    items.sort((a, b) => (a.cnpj !== b.cnpj ? (a.cnpj < b.cnpj ? -1 : 1) : (a.campo ?? '') < (b.campo ?? '') ? -1 : 1));
    expected.set(months[i].month, items);
    municipioName = neu
      .prepare(`SELECT description FROM reg.municipios WHERE code = ?`)
      .pluck()
      .get(items.find((x) => x.attrs)!.attrs!.municipio) as string;
    old.close();
    neu.close();
  }

  const strip = (xs: readonly (Item & { attrs?: unknown; level?: unknown })[]) =>
    xs.map(({ attrs: _a, level: _l, ...x }) => x);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'changes-api-'));
    dataDir = join(dir, 'data');
    months.push(await generateDump({ companies: 2000, out: join(dir, 'm0'), seed: 42, month: '2026-11' }));
    months.push(await generateDump({ companies: 0, out: join(dir, 'm1'), evolveFrom: join(dir, 'm0') }));
    months.push(await generateDump({ companies: 0, out: join(dir, 'm2'), evolveFrom: join(dir, 'm1'), seed: 7 }));
    for (let i = 0; i < 3; i++)
      await runImport({
        dataDir,
        inputs: [join(dir, `m${i}`)],
        month: months[i].month,
        keep: 3,
        search: false,
        history: false,
        log: () => {},
      });
    acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
    server = await serve(dataDir);
    // Before any month is recorded: no history.db yet, while the server runs.
    const none = await feed('');
    assert.equal(none.status, 404);
    assert.equal(none.body.error, 'month_not_recorded');
    // No history yet: a CNPJ of the served snapshot has an empty history, not an error.
    const known = openSqlite(':memory:');
    attachSnapshot(known, snap(2).dir);
    const some = known.prepare('SELECT cnpj FROM est.establishments LIMIT 1').pluck().get() as string;
    known.close();
    const empty = await get(`${server.url}/api/v1/brazilian_companies/${some}/history`, bearer(acct.token));
    assert.deepEqual([empty.status, empty.body], [200, { cnpj: some, data: [] }]);
    for (const i of [1, 2]) {
      const r = recordMonth(dataDir, snap(i - 1), snap(i));
      assert.ok(r.recorded);
      reference(i);
    }
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a whole month, page after page: every change once, in (CNPJ, campo) order; company-level changes under the head office', async () => {
    for (const limit of [100, 7]) {
      const { items, month } = await walk('month=2026-12', limit);
      assert.equal(month, '2026-12');
      assert.deepEqual(items, strip(expected.get('2026-12')!));
    }
    const { items, month } = await walk('');
    assert.equal(month, '2027-01', 'the newest recorded month by default');
    const all = expected.get('2027-01')!;
    assert.deepEqual(items, strip(all));
    const company = all.filter((x) => x.level === 'company');
    assert.ok(
      company.length >= 15 && new Set(company.map((x) => x.campo)).size >= 5,
      'company-level changes of several campos',
    );
    for (const x of company) assert.equal(x.attrs?.matriz, 1, `${x.cnpj} ${x.campo} is shown under a head office`);
    assert.equal(new Set(items.map((x) => `${x.cnpj} ${x.campo ?? ''}`)).size, items.length, 'no duplicate');
  });

  test('every filter: the changes whose CNPJ has the attribute (new month; the month before for encerramento)', async () => {
    const all = expected.get('2027-01')!;
    const a0 = all.find((x) => x.attrs && x.tipo === 'alteracao')!.attrs!;
    const closed = [...all, ...expected.get('2026-12')!].find((x) => x.tipo === 'encerramento' && x.attrs)!;
    assert.ok(closed, 'an encerramento in the months');
    const isoDate = (n: number) => `${String(n).slice(0, 4)}-${String(n).slice(4, 6)}-${String(n).slice(6)}`;
    const wordsOf = (x: (typeof all)[number]) => (x.attrs ? normalizeText(x.attrs.names).split(' ') : []);
    // a word of a name common enough to select several changes, and a prefix of another word
    const counts = new Map<string, number>();
    for (const x of all) for (const w of new Set(wordsOf(x))) counts.set(w, (counts.get(w) ?? 0) + 1);
    const word = [...counts].filter(([w, n]) => n >= 3 && n < all.length / 4 && /^[a-z]{4,}$/.test(w)).sort()[0][0];
    const prefix = all
      .filter((x) => wordsOf(x).includes(word))
      .flatMap(wordsOf)
      .find((w) => w !== word && w.length >= 4)!
      .slice(0, 3);
    const cep5 = String(a0.cep).padStart(8, '0').slice(0, 5);
    const secondary = all
      .map((x) => x.attrs?.cnaes)
      .find((c) => c)!
      .split(',')[0]
      .padStart(7, '0')
      .slice(0, 4);
    const cases: [string, (x: (typeof all)[number]) => boolean][] = [
      ['tipo=abertura', (x) => x.tipo === 'abertura'],
      ['tipo=encerramento,abertura', (x) => x.tipo !== 'alteracao'],
      ['campo=situacao_cadastral,municipio', (x) => x.campo === 'situacao_cadastral' || x.campo === 'municipio'],
      ['tipo=alteracao&campo=socios', (x) => x.campo === 'socios'],
      [`uf=${a0.uf.toLowerCase()}`, (x) => x.attrs?.uf === a0.uf],
      [`municipio=${a0.municipio}`, (x) => x.attrs?.municipio === a0.municipio],
      [
        `municipio=${encodeURIComponent(municipioName.toLowerCase())}`,
        (x) => x.attrs?.municipio === expected.get('2027-01')!.find((y) => y.attrs)!.attrs!.municipio,
      ],
      [
        `cnae=${String(a0.cnae).slice(0, 2)}`,
        (x) => String(x.attrs?.cnae).padStart(7, '0').startsWith(String(a0.cnae).slice(0, 2)),
      ],
      [`cnae=${a0.cnae}&uf=${a0.uf}`, (x) => x.attrs?.cnae === a0.cnae && x.attrs?.uf === a0.uf],
      ['situacao_cadastral=baixada', (x) => x.attrs?.situacao === 8],
      [
        `situacao_cadastral=${SIT[closed.attrs!.situacao]}&tipo=encerramento`,
        (x) => x.attrs?.situacao === closed.attrs!.situacao && x.tipo === 'encerramento',
      ],
      ['matriz_filial=filial', (x) => x.attrs?.matriz === 2],
      ['natureza_juridica=2062', (x) => x.attrs?.natureza === 2062],
      ['porte=1,3', (x) => x.attrs?.porte === 1 || x.attrs?.porte === 3],
      ['opc_simples=true', (x) => x.attrs?.simples === 1],
      ['opc_mei=false&campo=razao_social', (x) => x.attrs?.mei === 0 && x.campo === 'razao_social'],
      // the search's other filters (subjects layout 3)
      [`q=${encodeURIComponent(word.toUpperCase())}`, (x) => wordsOf(x).includes(word)],
      [
        `q=${encodeURIComponent(`${word} ${prefix}`)}`,
        (x) => wordsOf(x).includes(word) && wordsOf(x).some((w) => w.startsWith(prefix)),
      ],
      [
        `cep=${cep5},${String(a0.cep).padStart(8, '0').slice(0, 3)}`,
        (x) =>
          x.attrs?.cep != null &&
          [cep5, String(a0.cep).padStart(8, '0').slice(0, 3)].some((p) =>
            String(x.attrs!.cep).padStart(8, '0').startsWith(p),
          ),
      ],
      [
        `cnae=${secondary}&cnae_secundario=true`,
        (x) =>
          x.attrs !== null &&
          [x.attrs.cnae, ...(x.attrs.cnaes ?? '').split(',')].some(
            (c) => c !== '' && String(c).padStart(7, '0').startsWith(secondary),
          ),
      ],
      ['has_email=true', (x) => x.attrs?.email === 1],
      ['has_telefone=false&tipo=alteracao', (x) => x.attrs?.telefone === 0 && x.tipo === 'alteracao'],
      [
        'inicio_atividade_min=2015-01-01&inicio_atividade_max=2022-06-30',
        (x) => x.attrs?.inicio != null && x.attrs.inicio >= 20150101 && x.attrs.inicio <= 20220630,
      ],
      [
        'capital_social_min=1000&capital_social_max=50000.5',
        (x) => x.attrs?.capital != null && x.attrs.capital >= 100000 && x.attrs.capital <= 5000050,
      ],
      // both ends inclusive
      [
        `capital_social_min=${a0.capital! / 100}&capital_social_max=${a0.capital! / 100}`,
        (x) => x.attrs?.capital === a0.capital,
      ],
      [
        `inicio_atividade_min=${isoDate(a0.inicio!)}&inicio_atividade_max=${isoDate(a0.inicio!)}`,
        (x) => x.attrs?.inicio === a0.inicio,
      ],
    ];
    for (const [qs, keep] of cases) {
      const want = strip(all.filter(keep));
      assert.ok(want.length > 0, `${qs} selects something`);
      assert.deepEqual((await walk(qs, 50)).items, want, qs);
    }
  });

  test('a page out of budget (SCAN_BUDGET) is short, resumes after the last subject read, and the walk still gives every change once', () => {
    const db = openSqlite(join(dataDir, 'history.db'), { readonly: true });
    try {
      for (const f of [{ campo: ['natureza_juridica', 'porte', 'uf'] }, { tipo: ['abertura' as const] }, {}]) {
        const want = strip(
          expected
            .get('2027-01')!
            .filter((x) => (f.campo ? f.campo.includes(x.campo!) : f.tipo ? x.tipo === 'abertura' : true)),
        );
        const got: Item[] = [];
        let after: FeedKey | null = null;
        let pages = 0;
        do {
          const p = feedPage(db, '2027-01', f, after, 10, 25);
          got.push(...p.items);
          after = p.next;
          assert.ok(++pages < 5000, 'the walk ends');
        } while (after !== null);
        assert.deepEqual(got, want, JSON.stringify(f));
        assert.ok(pages > want.length / 10, 'budget-short pages happen');
      }
    } finally {
      db.close();
    }
  });

  test('with tipo/campo, SQLite skips subjects in CNPJ ranges (SCAN_RANGES): a page ends at its last range, the next goes on from there, every change once', () => {
    const db = openSqlite(join(dataDir, 'history.db'), { readonly: true });
    try {
      const subjects = db.prepare("SELECT count(*) FROM subjects WHERE month = '2027-01'").pluck().get() as number;
      const ranges = [3, 5, 7];
      const uf = expected.get('2027-01')!.find((x) => x.attrs && (x.campo === 'uf' || x.campo === 'municipio'))!.attrs!
        .uf;
      const cases: [FeedFilters, (x: Item & { attrs: Attrs | null }) => boolean][] = [
        [{ campo: ['natureza_juridica', 'porte'] }, (x) => ['natureza_juridica', 'porte'].includes(x.campo!)],
        [{ tipo: ['abertura', 'encerramento'] }, (x) => x.tipo !== 'alteracao'],
        [{ campo: ['uf', 'municipio'], uf: [uf] }, (x) => ['uf', 'municipio'].includes(x.campo!) && x.attrs?.uf === uf],
      ];
      for (const [f, keep] of cases) {
        const want = strip(expected.get('2027-01')!.filter(keep));
        assert.ok(want.length > 0, JSON.stringify(f));
        const got: Item[] = [];
        let after: FeedKey | null = null;
        let [pages, short] = [0, 0];
        do {
          const p = feedPage(db, '2027-01', f, after, 10, SCAN_BUDGET, ranges);
          got.push(...p.items);
          if (p.next !== null && p.items.length < 10) short++;
          after = p.next;
          assert.ok(++pages < 5000, 'the walk ends');
        } while (after !== null);
        assert.deepEqual(got, want, JSON.stringify(f));
        assert.ok(
          short > 0 && pages >= subjects / 15 - 1,
          `pages end at their ranges (${pages} pages, ${short} short, ${subjects} subjects)`,
        );
      }
    } finally {
      db.close();
    }
  });

  test('a month recorded by the layout before (history.db version 2): migrated on open; its filters answer, the newer ones 400 naming the filter and the month', async () => {
    const w = openHistoryDb(dataDir);
    w.pragma('wal_checkpoint(TRUNCATE)');
    w.close();
    const old = join(dir, 'v2');
    mkdirSync(old);
    copyFileSync(join(dataDir, 'history.db'), join(old, 'history.db'));
    const v2 = openSqlite(join(old, 'history.db'));
    for (const [c] of V3_COLUMNS) v2.exec(`ALTER TABLE subjects DROP COLUMN ${c}`);
    v2.exec('ALTER TABLE history_months DROP COLUMN subjects_version');
    v2.pragma('user_version = 2');
    v2.close();
    const migrated = openHistoryReader(old)!;
    const now = openSqlite(join(dataDir, 'history.db'), { readonly: true });
    try {
      assert.equal(migrated.pragma('user_version', { simple: true }), 3);
      assert.deepEqual(migrated.prepare('SELECT DISTINCT subjects_version FROM history_months').pluck().all(), [2]);
      const uf = expected.get('2027-01')!.find((x) => x.attrs && (x.campo === 'uf' || x.campo === 'municipio'))!.attrs!
        .uf;
      assert.deepEqual(
        feedPage(migrated, '2027-01', { uf: [uf] }, null, 100),
        feedPage(now, '2027-01', { uf: [uf] }, null, 100),
      );
      assert.throws(
        () => feedPage(migrated, '2027-01', { uf: [uf], has_email: false }, null, 100),
        (e: Error) => e instanceof FilterUnavailable && e.param === 'has_email',
      );
    } finally {
      migrated.close();
      now.close();
    }
    // Through the API: the month's layout said older
    const h = openHistoryDb(dataDir);
    const layout = (v: number) =>
      h.prepare('UPDATE history_months SET subjects_version = ? WHERE month = ?').run(v, '2027-01');
    try {
      layout(2);
      const before = remaining(await feed('?limit=1'));
      const r = await feed('?month=2027-01&cep=01');
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_parameter']);
      assert.match(r.body.message, /O filtro cep não está disponível para o mês 2027-01/);
      assert.equal((await feed('?month=2027-01&uf=SP')).status, 200);
      assert.equal((await feed('?month=2026-12&cep=01')).status, 200, 'another month has it');
      assert.equal(remaining(await feed('?limit=1')), before - 3, 'the refused one not counted');
    } finally {
      layout(3);
      h.close();
    }
  });

  test('bad parameters: 400 naming the parameter; an unknown month 404; nothing counted', async () => {
    const before = remaining(await feed('?limit=1'));
    for (const [qs, name] of [
      ['?month=2026-13', 'month'],
      ['?month=202612', 'month'],
      ['?tipo=aberta', 'tipo'],
      ['?campo=cor', 'campo'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?uf=SPX', 'uf'],
      ['?cnae=4', 'cnae'],
      ['?cnae_secundario=sim', 'cnae_secundario'],
      ['?q=%20-%20', 'q'],
      ['?cep=1', 'cep'],
      ['?inicio_atividade_min=2026-02-30', 'inicio_atividade_min'],
      ['?capital_social_min=-1', 'capital_social_min'],
      ['?has_email=1', 'has_email'],
      ['?cursor=abc', 'cursor'],
      ['?municipio=Cidade%20Inexistente', 'municipio'],
      ['?uf=SP&uf=RJ', 'uf'],
    ]) {
      const r = await feed(qs);
      assert.equal(r.status, 400, qs);
      assert.equal(r.body.error, 'invalid_parameter', qs);
      assert.match(r.body.message, new RegExp(name), qs);
      assert.ok(r.headers.get('x-ratelimit-limit'), qs);
    }
    // A cursor of another filter set, or of another month, is refused.
    const first = await feed('?uf=SP&limit=1');
    assert.equal((await feed(`?uf=RJ&limit=1&cursor=${first.body.next_cursor}`)).status, 400);
    assert.equal((await feed(`?uf=SP&month=2026-12&limit=1&cursor=${first.body.next_cursor}`)).status, 400);
    const unknown = await feed('?month=2020-01');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'month_not_recorded');
    assert.match(unknown.body.message, /2020-01.*2027-01/);
    assert.equal(remaining(await feed('?limit=1')), before - 2, 'only the two pages answered counted');
  });

  test('one call per page; a cursor made without month keeps paging its month', async () => {
    const a = await makeAccount(dataDir, 'Contador', { quota: 1000 });
    const r1 = await feed('?limit=5', a);
    assert.equal(remaining(r1), 999);
    const r2 = await feed(`?limit=5&cursor=${r1.body.next_cursor}`, a);
    assert.equal(remaining(r2), 998);
    assert.equal(r2.body.month, '2027-01');
    assert.deepEqual([...r1.body.data, ...r2.body.data], strip(expected.get('2027-01')!.slice(0, 10)));
    const spent = await makeAccount(dataDir, 'Esgotado', { quota: 1 });
    assert.equal((await feed('?limit=1', spent)).status, 200);
    const refused = await feed('?limit=1', spent);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'quota_exceeded');
    assert.equal((await get(`${server.url}/api/v1/changes`)).status, 401);
  });

  test("a company history: its own changes and its company's, newest month first", async () => {
    const h = openHistoryDb(dataDir);
    // A CNPJ with changes of its own and a company with changes, in more than one month.
    const cnpj = h
      .prepare(
        `SELECT e.cnpj FROM changes e WHERE length(e.cnpj) = 14 AND EXISTS (SELECT 1 FROM changes c WHERE c.cnpj = substr(e.cnpj, 1, 8))
         ORDER BY (SELECT count(DISTINCT x.month) FROM changes x WHERE x.cnpj IN (e.cnpj, substr(e.cnpj, 1, 8))) DESC, e.cnpj LIMIT 1`,
      )
      .pluck()
      .get() as string;
    const own = h
      .prepare('SELECT * FROM changes WHERE cnpj IN (?, ?) ORDER BY month DESC, campo')
      .all(cnpj, cnpj.slice(0, 8)) as ChangeRow[];
    h.close();
    assert.ok(cnpj, 'a CNPJ with changes at both levels');
    const formatted = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
    const r = await get(`${server.url}/api/v1/brazilian_companies/${formatted}/history`, bearer(acct.token));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.cnpj, cnpj);
    assert.deepEqual(
      r.body.data,
      own.map((x) =>
        x.tipo === 'alteracao'
          ? {
              month: x.month,
              cnpj,
              tipo: x.tipo,
              campo: x.campo,
              antes: JSON.parse(x.antes!),
              depois: JSON.parse(x.depois!),
            }
          : { month: x.month, cnpj, tipo: x.tipo },
      ),
    );
    assert.ok(
      r.body.data.some(
        (x: Item) =>
          x.campo === 'razao_social' ||
          x.campo === 'socios' ||
          x.campo === 'capital_social' ||
          x.campo === 'opc_simples' ||
          x.campo === 'opc_mei' ||
          x.campo === 'porte' ||
          x.campo === 'natureza_juridica',
      ),
    );
    // Newest month first: a CNPJ (own or company changes) in both recorded months.
    const h2 = openHistoryDb(dataDir);
    const multi = h2
      .prepare(
        `SELECT e.cnpj FROM changes e WHERE length(e.cnpj) = 14 AND (SELECT count(DISTINCT x.month) FROM changes x WHERE x.cnpj IN (e.cnpj, substr(e.cnpj, 1, 8))) = 2 LIMIT 1`,
      )
      .pluck()
      .get() as string;
    h2.close();
    assert.ok(multi, 'a CNPJ with changes in both months');
    const m = await get(`${server.url}/api/v1/brazilian_companies/${multi}/history`, bearer(acct.token));
    const seen = m.body.data.map((x: { month: string }) => x.month);
    assert.deepEqual(seen, [...seen].sort().reverse());
    assert.equal(new Set(seen).size, 2);
    // A CNPJ gone in an earlier month: only the history knows it.
    const gone = [...expected.get('2026-12')!, ...expected.get('2027-01')!].find(
      (x) => x.tipo === 'encerramento',
    )!.cnpj;
    const g = await get(`${server.url}/api/v1/brazilian_companies/${gone}/history`, bearer(acct.token));
    assert.equal(g.status, 200);
    assert.equal(g.body.data[0].tipo, 'encerramento');
    const before = remaining(g);
    assert.equal(
      (await get(`${server.url}/api/v1/brazilian_companies/12345678000100/history`, bearer(acct.token))).status,
      400,
    );
    const unknown = await get(
      `${server.url}/api/v1/brazilian_companies/${makeCnpj('99999998', '0001')}/history`,
      bearer(acct.token),
    );
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, 'not_found');
    assert.equal(remaining(unknown), before - 1, 'the 404 counts, the 400 does not');
    assert.equal(
      (await get(`${server.url}/api/v1/brazilian_companies/${cnpj}/history?limit=2`, bearer(acct.token))).status,
      400,
    );
  });
});

test('/openapi.json and /docs: both operations, parameters from the schema, examples that match it', async () => {
  const { buildOpenApi } = await import('../../../src/server/docs/openapi.ts');
  const { buildDocsHtml } = await import('../../../src/server/docs/docs.ts');
  const { Value } = await import('@sinclair/typebox/value');
  const { ChangesPageSchema, ChangesQuerySchema, CompanyHistorySchema } =
    await import('../../../src/domain/history/feed-schema.ts');
  const { changesExample, historyExample } = await import('../../../src/server/docs/examples-changes.ts');
  const o = buildOpenApi('https://api.example') as any;
  const feed = o.paths['/api/v1/changes'].get;
  assert.deepEqual(
    feed.parameters.map((p: { name: string }) => p.name).sort(),
    Object.keys(ChangesQuerySchema.properties).sort(),
  );
  assert.ok(
    feed.responses['404'] && feed.responses['400'] && feed['x-codeSamples'][0].source.includes('/api/v1/changes?'),
  );
  assert.ok(o.paths['/api/v1/brazilian_companies/{cnpj}/history'].get.responses['404']);
  assert.ok(Value.Check(ChangesPageSchema, changesExample()));
  assert.ok(Value.Check(CompanyHistorySchema, historyExample()));
  const html = buildDocsHtml('https://api.example');
  assert.match(html, /id="mudancas"/);
  assert.match(html, /month_not_recorded/);
});
