// The search engine against a brute-force oracle (oracle.ts: plain SQL over the snapshot tables)
// on the committed demo-400 month (445 establishments, 2 alphanumeric CNPJs), imported for real:
// every filter alone and combined, every page walked with a small limit (no duplicate, no gap),
// and `count` equal to the number of results.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CompanyFilters } from '../../../src/domain/search/filters.ts';
import { DEMO_400 } from '../../fixtures/index.ts';
import { allPages, importMonth, type Imported } from './helpers.ts';

let m: Imported;
before(async () => {
  m = await importMonth([DEMO_400], { searchParts: 2 });
});
after(() => m?.close());

/** The case's results page by page, compared with the oracle; and its count. */
function check(f: CompanyFilters, opts: { limit?: number; min?: number; source?: 'tables' | 'index' } = {}): string[] {
  const expected = m.oracle.companies(f);
  const { cnpjs } = allPages(m.search, f, opts.limit ?? 7);
  assert.deepEqual(cnpjs, expected, JSON.stringify(f));
  assert.equal(new Set(cnpjs).size, cnpjs.length, `duplicates in ${JSON.stringify(f)}`);
  assert.ok(
    expected.length >= (opts.min ?? 1),
    `the case ${JSON.stringify(f)} should match something (${expected.length})`,
  );
  const c = m.search.count(f, { bound: 1_000_000 });
  assert.deepEqual(
    { count: c.count, exact: c.exact },
    { count: expected.length, exact: true },
    `count of ${JSON.stringify(f)}`,
  );
  if (opts.source) assert.equal(c.source, opts.source, `count source of ${JSON.stringify(f)}`);
  return cnpjs;
}

const column = <T>(sql: string) => m.oracle.db.prepare(sql).pluck().all() as T[];

test('each filter alone matches the oracle, page by page, and its count', () => {
  const top = (expr: string, from = 'est.establishments e') =>
    column<unknown>(`SELECT ${expr} FROM ${from} GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`)[0];
  check({ uf: ['SP'] });
  check({ uf: ['rj', 'MG'] });
  check({ municipio: [top('e.municipio') as number] });
  const cep = column<number>('SELECT cep FROM est.establishments WHERE cep IS NOT NULL ORDER BY cnpj LIMIT 1')[0];
  const cep8 = String(cep).padStart(8, '0');
  for (let len = 2; len <= 8; len++) check({ cep: [cep8.slice(0, len)] });
  check({ cep: ['01', '2', '99999999'].filter((p) => p.length >= 2) }, { min: 0 });
  const cnae = String(
    column<number>(
      `SELECT cnae_fiscal FROM est.establishments WHERE cnaes_secundarios IS NOT NULL ORDER BY cnpj LIMIT 1`,
    )[0],
  ).padStart(7, '0');
  for (let len = 2; len <= 7; len++) {
    check({ cnae: [cnae.slice(0, len)] });
    check({ cnae: [cnae.slice(0, len)], cnae_secundario: true });
  }
  for (const s of ['ativa', 'baixada', 'inapta', 'suspensa', 'nula'] as const) check({ situacao_cadastral: [s] });
  check({ situacao_cadastral: ['ativa', 'suspensa'] });
  check({ matriz_filial: 'matriz' });
  check({ matriz_filial: 'filial' });
  check({ natureza_juridica: [2062] });
  check({ natureza_juridica: [2135, 3999] });
  check({ porte: [1] });
  check({ porte: [3, 5] });
  check({ porte: [0] }, { min: 0 });
  for (const v of [true, false]) {
    check({ opc_simples: v });
    check({ opc_mei: v });
    check({ has_email: v });
    check({ has_telefone: v });
  }
});

test('date and capital ranges: whole years and buckets, cut months and buckets checked row by row', () => {
  check({ inicio_atividade_min: '2020-01-01', inicio_atividade_max: '2021-12-31' });
  check({ inicio_atividade_min: '2020-03-15', inicio_atividade_max: '2021-07-09' });
  check({ inicio_atividade_min: '2024-02-10' });
  check({ inicio_atividade_max: '2001-06-30' });
  check({ inicio_atividade_min: '2023-05-05', inicio_atividade_max: '2023-05-05' }, { min: 0 });
  check({ inicio_atividade_min: '2030-01-01' }, { min: 0 });
  check({ capital_social_min: 10_000, capital_social_max: 49_999.99 });
  check({ capital_social_min: 1234.56, capital_social_max: 98765.43 });
  check({ capital_social_min: 1_000_000 });
  check({ capital_social_max: 0 });
  check({ capital_social_max: 5000.5 });
  check({ capital_social_min: 100, inicio_atividade_min: '2019-06-15', inicio_atividade_max: '2025-03-03' });
});

test('names: every word in either name, the last one also as a prefix', () => {
  const words = column<string>(
    `SELECT w FROM (SELECT lower(substr(razao_social, 1, instr(razao_social || ' ', ' ') - 1)) AS w FROM reg.companies) WHERE length(w) > 3 GROUP BY w ORDER BY count(*) DESC LIMIT 3`,
  );
  for (const w of words) {
    check({ q: w });
    check({ q: w.toUpperCase().slice(0, 3) });
  }
  check({ q: 'ltda' });
  check({ q: 'comercio lt' });
  check({ q: 'COMÉRCIO, ltda.' });
  check({ q: 'l' }, { min: 0 });
  check({ q: 'zzzzzz' }, { min: 0 });
  // A word of the nome fantasia with one of the razão social.
  const [razao, fantasia] = m.oracle.db
    .prepare(
      `SELECT c.razao_social, e.nome_fantasia FROM est.establishments e JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8) WHERE e.nome_fantasia IS NOT NULL AND instr(c.razao_social, e.nome_fantasia) = 0 ORDER BY e.cnpj LIMIT 1`,
    )
    .raw()
    .get() as [string, string];
  check({ q: `${fantasia.split(' ')[0]} ${razao.split(' ')[0]}` });
});

test('combinations match the oracle', () => {
  check({ uf: ['SP'], situacao_cadastral: ['ativa'], porte: [1] }, { source: 'tables' });
  check(
    { uf: ['SP', 'RJ'], situacao_cadastral: ['ativa', 'baixada'], matriz_filial: 'matriz', has_email: true },
    { source: 'tables' },
  );
  check({ natureza_juridica: [2062, 2135], opc_simples: true, has_telefone: false }, { source: 'tables' });
  check({ municipio: [6001, 9701], situacao_cadastral: ['ativa'], porte: [1, 5] }, { source: 'tables' });
  check({ cnae: ['47'], uf: ['SP'] }, { source: 'tables' });
  check(
    { cnae: ['4711', '56'], situacao_cadastral: ['ativa', 'baixada'], matriz_filial: 'matriz' },
    { source: 'tables' },
  );
  check({ municipio: [6001], has_email: true }, { source: 'index' });
  check({ cnae: ['94'], cnae_secundario: true, situacao_cadastral: ['baixada'] });
  check({ q: 'ltda', uf: ['SP'], opc_simples: true });
  check({ q: 'comercio', cnae: ['47'], inicio_atividade_min: '2015-01-01' }, { min: 0 });
  check({ municipio: ['Rio de Janeiro'], uf: ['RJ'] });
  check({ municipio: ['rio de janeiro', 9701] });
  check({ natureza_juridica: [2062], capital_social_min: 50_000, has_telefone: true });
  check({ opc_mei: true, opc_simples: true, has_email: false, porte: [1] });
});

test('every page is as fast as the first: a cursor is a CNPJ, alphanumeric ones included', () => {
  const all = m.oracle.companies({ matriz_filial: 'matriz' });
  const alnum = all.filter((c) => /[A-Z]/.test(c));
  assert.equal(alnum.length, 2, 'the fixture has two alphanumeric CNPJs');
  for (const after of [...alnum, all[10], all[all.length - 1]]) {
    const page = m.search.search({ matriz_filial: 'matriz' }, { limit: 5, after });
    assert.deepEqual(page.cnpjs, all.filter((c) => c > after).slice(0, 5), `after ${after}`);
  }
  // Walking with limit 1 and 100 gives the same list.
  assert.deepEqual(allPages(m.search, { uf: ['SP'] }, 1).cnpjs, allPages(m.search, { uf: ['SP'] }, 100).cnpjs);
  // The last page says there is no next one; a full page does not.
  const rj = m.oracle.companies({ uf: ['RJ'] });
  assert.equal(m.search.search({ uf: ['RJ'] }, { limit: rj.length }).next, null);
  assert.equal(m.search.search({ uf: ['RJ'] }, { limit: rj.length - 1 }).next, rj[rj.length - 2]);
});

test('no filter, or only cnae_secundario, is refused naming a parameter; so are a bad cursor and limit', () => {
  for (const f of [{}, { cnae_secundario: true }, { uf: [] }]) {
    assert.throws(() => m.search.search(f, { limit: 5 }), { name: 'InvalidFilter', param: 'q' });
    assert.throws(() => m.search.count(f), { name: 'InvalidFilter', param: 'q' });
  }
  assert.throws(() => m.search.search({ uf: ['SP'] }, { limit: 5, after: 'x' }), {
    name: 'InvalidFilter',
    param: 'cursor',
  });
  assert.throws(() => m.search.search({ uf: ['SP'] }, { limit: 101 }), { name: 'InvalidFilter', param: 'limit' });
});

test('counts: with q past the bound, exact:false', () => {
  const all = m.oracle.companies({ q: 'ltda' });
  assert.ok(all.length > 20);
  assert.deepEqual(m.search.count({ q: 'ltda' }, { bound: 10 }), { count: 10, exact: false, source: 'index' });
  assert.deepEqual(m.search.count({ q: 'ltda' }, { bound: all.length }), {
    count: all.length,
    exact: true,
    source: 'index',
  });
  // Without q, counts are exact whatever the bound.
  const sp = m.oracle.companies({ uf: ['SP'] }).length;
  assert.deepEqual(m.search.count({ uf: ['SP'] }, { bound: 10 }), { count: sp, exact: true, source: 'tables' });
  const cut = m.oracle.companies({
    cep: ['0', '1'].map((d) => `${d}1234`).concat(['68']),
    situacao_cadastral: ['ativa'],
  }).length;
  assert.equal(
    m.search.count({ cep: ['01234', '11234', '68'], situacao_cadastral: ['ativa'] }, { bound: 1 }).count,
    cut,
  );
});

test('counts: a work budget; walked in slices, exact when it ends in time, a minimum with exact:false when not', () => {
  // Filters the count tables do not cover: counted through the index, slice after slice.
  const f: CompanyFilters = {
    has_email: true,
    cep: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => `${d}${d}`),
  };
  const all = m.oracle.companies(f).length;
  assert.ok(all > 10, `a broad uncovered count (${all})`);
  assert.deepEqual(m.search.count(f, { slice: 3 }), { count: all, exact: true, source: 'index' });
  assert.deepEqual(m.search.count(f, { slice: 1 }), { count: all, exact: true, source: 'index' });
  // Out of time before the first slice: nothing counted, and said so.
  assert.deepEqual(m.search.count(f, { ms: 0, slice: 3 }), { count: 0, exact: false, source: 'index' });
  // With q and a checked variant the budget holds too.
  const q = m.search.count({ q: 'ltda', uf: ['SP'] }, { ms: 0 });
  assert.equal(q.exact, false);
  // A count summed from the count tables walks nothing: exact whatever the budget.
  const sp = m.oracle.companies({ uf: ['SP'] }).length;
  assert.deepEqual(m.search.count({ uf: ['SP'] }, { ms: 0 }), { count: sp, exact: true, source: 'tables' });
});

test('pages: a work budget; out of time a page ends shorter with its cursor, and the pages still join with no repeat or gap', () => {
  const cases: CompanyFilters[] = [{ uf: ['SP'] }, { q: 'ltda' }, { situacao_cadastral: ['ativa'], porte: [1, 3] }];
  for (const f of cases) {
    const expected = m.oracle.companies(f);
    assert.ok(expected.length > 5, JSON.stringify(f));
    const page = m.search.search(f, { limit: 100, ms: 0 });
    // No time at all: one candidate examined, then the page ends with a cursor.
    assert.equal(page.cnpjs.length, 1, JSON.stringify(f));
    assert.equal(page.next, page.cnpjs[0]);
    const walked = allPages(m.search, f, 100, 0);
    assert.deepEqual(walked.cnpjs, expected, JSON.stringify(f));
    // One candidate a page, and an empty last page when the last one ran out of time too.
    assert.ok(walked.pages - expected.length <= 1, `${walked.pages} pages for ${expected.length}`);
    assert.deepEqual(allPages(m.search, f, 100).cnpjs, expected, 'in time: full pages');
  }
});
