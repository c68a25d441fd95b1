// The relevance order of a name search (issue #46): exact names first, by importance; every word
// next; forgiving spellings last; grouping by company; paging without repeats or gaps; order=cnpj;
// typeahead. On the real sample month plus companies written here for each rule.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import type { CompanyFilters } from '../../../src/domain/search/index.ts';
import { formDistance } from '../../../src/domain/search/name-key.ts';
import { EXACT_ROOTS } from '../../../src/domain/search/relevance.ts';
import { nameHolds, queryWords } from '../../../src/domain/search/prefix.ts';
import { normalizeText } from '../../../src/domain/search/normalize.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';
import { estabelecimento, rec, tempDir, writeZip } from '../../importer/helpers.ts';
import { importMonth, type Imported } from './helpers.ts';

/** base → [razão social, capital, [ordem, nome fantasia, situação, matriz(1)/filial(2), UF][]] */
const COMPANIES: Record<string, [string, string, [string, string, string, string, string][]]> = {
  '90000001': [
    'BANCO DO BRASIL SA',
    '120000000000,00',
    [
      ['0001', 'DIRECAO GERAL', '02', '1', 'DF'],
      ['0002', 'AGENCIA CENTRO', '02', '2', 'SP'],
      ['0003', 'AGENCIA SUL', '02', '2', 'RS'],
      ['0004', '', '08', '2', 'RJ'],
    ],
  ],
  '90000002': ['BANCO DO BRASIL LTDA', '1000,00', [['0001', '', '08', '1', 'SP']]],
  '90000003': ['BRASIL BANCO LTDA', '1000,00', [['0001', '', '02', '1', 'SP']]],
  '90000004': ['COMERCIO BANCO BRASIL EIRELI', '1000,00', [['0001', '', '02', '1', 'SP']]],
  '90000005': ['FIT LAB ACADEMIA LTDA', '1000,00', [['0001', '', '02', '1', 'MG']]],
  '90000006': ['FITLAB SISTEMAS ME', '1000,00', [['0001', '', '02', '1', 'MG']]],
  '90000007': ['MAGAZINE ZUBIRANDA S/A', '5000,00', [['0001', 'ZUBIRANDA', '02', '1', 'SP']]],
  '90000008': [
    'JOAO QUIRINO COMERCIO LTDA',
    '1000,00',
    [
      ['0001', '', '02', '1', 'PR'],
      ['0002', 'PADARIA XAVANTINA', '02', '2', 'PR'],
    ],
  ],
};
// Forty companies of one name: more than an exact tier lists (EXACT_ROOTS per part).
for (let i = 0; i < 40; i++)
  COMPANIES[String(90000100 + i)] = ['PADARIA MESMO NOME LTDA', '1000,00', [['0001', '', '02', '1', 'GO']]];

let m: Imported;
const roots = (cnpjs: readonly string[]) => cnpjs.map((c) => c.slice(0, 8));
const ours = (cnpjs: readonly string[]) => roots(cnpjs).filter((r) => r in COMPANIES);
const ranked = (f: CompanyFilters, limit = 100, group = true) =>
  m.search.ranked(f, { limit, group }).items.map((i) => i.cnpj);

before(async () => {
  const extra = tempDir('relevance-');
  let est = '';
  let emp = '';
  for (const [base, [razao, capital, offices]] of Object.entries(COMPANIES)) {
    emp += rec(base, razao, '2062', '49', capital, '05', '');
    for (const [ordem, fantasia, sit, mf, uf] of offices)
      est += estabelecimento(base, ordem, makeCnpj(base, ordem).slice(12), { 3: mf, 4: fantasia, 5: sit, 19: uf });
  }
  writeZip(path.join(extra, 'Estabelecimentos1.zip'), 'K3241.K03200Y1.D60913.ESTABELE', est);
  writeZip(path.join(extra, 'Empresas1.zip'), 'K3241.K03200Y1.D60913.EMPRECSV', emp);
  try {
    m = await importMonth([RECEITA_MINI, extra], { searchParts: 2, log: () => {} });
  } finally {
    fs.rmSync(extra, { recursive: true, force: true });
  }
});
after(() => m?.close());

test('the exact name first, by importance: active, more establishments; the same words in another order next; then every word', () => {
  const got = ours(ranked({ q: 'BANCO DO BRASIL' }));
  assert.deepEqual(got, ['90000001', '90000002', '90000003', '90000004']);
  // Legal forms and connectors are never required, however they are typed.
  for (const q of ['banco brasil', 'BANCO DO BRASIL S.A.', 'Banco do Brasil S/A', 'banco do brasil sa'])
    assert.equal(ranked({ q })[0].slice(0, 8), '90000001', q);
  // A name equal to the whole text typed, legal form and all, comes before the same core words.
  assert.deepEqual(ours(ranked({ q: 'banco do brasil ltda' })).slice(0, 2), ['90000002', '90000001']);
  // The same words typed in another order: that name ranks first among exact ones.
  assert.equal(ours(ranked({ q: 'BRASIL BANCO' }))[0], '90000003');
});

test('legal forms rank exact names only when one is typed; connectors always', () => {
  assert.equal(formDistance('SILVA TRANSPORTES LTDA ME', 'silva transportes ltda me'), 0);
  assert.equal(formDistance('SILVA TRANSPORTES LTDA ME', 'silva transportes ltda'), 1);
  assert.equal(formDistance('SILVA TRANSPORTES LTDA ME', 'silva transportes eireli'), 3);
  assert.equal(formDistance('BANCO DO BRASIL S.A.', 'banco do brasil s a'), 0);
  // Typed without a legal form: the name's form says nothing, importance decides.
  assert.equal(formDistance('BANCO DO BRASIL SA', 'banco do brasil'), 0);
  assert.equal(formDistance('BANCO DO BRASIL', 'banco do brasil'), 0);
  assert.equal(formDistance('BANCO BRASIL LTDA', 'banco do brasil'), 1);
});

test('grouped: one item per company, its head office, and how many of its establishments were found', () => {
  const page = m.search.ranked({ q: 'banco do brasil' }, { limit: 10, group: true });
  const bb = page.items.filter((i) => i.cnpj.startsWith('90000001'));
  assert.equal(bb.length, 1);
  assert.equal(bb[0].cnpj, makeCnpj('90000001', '0001'));
  assert.equal(bb[0].found, 4);
  // With a filter, only the matching establishments count, and the head office is not one of them.
  const sp = m.search.ranked({ q: 'banco do brasil', uf: ['SP'] }, { limit: 10, group: true });
  const inSp = sp.items.find((i) => i.cnpj.startsWith('90000001'))!;
  assert.deepEqual([inSp.cnpj, inSp.found], [makeCnpj('90000001', '0002'), 1]);
  // A branch found by its own nome fantasia is the item when the head office's names do not match.
  const padaria = m.search.ranked({ q: 'padaria xavantina' }, { limit: 10, group: true }).items;
  assert.deepEqual([padaria[0].cnpj, padaria[0].found], [makeCnpj('90000008', '0002'), 1]);
  // Ungrouped: every establishment, the active ones first, the head office first among them.
  const all = ranked({ q: 'banco do brasil' }, 100, false).filter((c) => c.startsWith('90000001'));
  assert.deepEqual(
    all,
    ['0001', '0002', '0003', '0004'].map((o) => makeCnpj('90000001', o)),
  );
});

test('a name read from the row is decided as the index decides it (nameHolds, for tiers met again)', () => {
  const rows = m.oracle.db
    .prepare(
      'SELECT e.cnpj, c.razao_social, e.nome_fantasia FROM est.establishments e LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8)',
    )
    .raw()
    .all() as [string, string | null, string | null][];
  for (const q of ['banco do brasil', 'comercio', 'fit lab', 'padaria xav', 'joao', 'silva ltda', 'ma', 'de', 'x']) {
    const found = new Set<string>();
    for (let after: string | null = null; ;) {
      const p = m.search.search({ q }, { limit: 100, after });
      p.cnpjs.forEach((c) => found.add(c));
      if (p.next === null) break;
      after = p.next;
    }
    const held = rows
      .filter(([, r, f]) => nameHolds(queryWords(q), normalizeText(`${r ?? ''} ${f ?? ''}`).split(' ')))
      .map(([c]) => c);
    assert.deepEqual(held.sort(), [...found].sort(), q);
  }
});

test('pages in the relevance order join with no repeat or gap, grouped or not, even out of time', () => {
  for (const group of [true, false])
    for (const [limit, ms] of [
      [1, undefined],
      [3, undefined],
      [2, 0],
    ] as const) {
      for (const q of ['banco do brasil', 'comercio', 'fitlab academia', 'magazine zubiranta']) {
        const whole = m.search.ranked({ q }, { limit: 100, group }).items.map((i) => i.cnpj);
        const paged: string[] = [];
        let cursor: string | null = null;
        for (let n = 0; ; n++) {
          assert.ok(n < 5000, 'runaway paging');
          const p = m.search.ranked({ q }, { limit, after: cursor, group, ms });
          paged.push(...p.items.map((i) => i.cnpj));
          if (p.next === null || paged.length >= whole.length + 5) break;
          cursor = p.next;
        }
        assert.deepEqual(paged.slice(0, whole.length), whole, `${q} limit ${limit} group ${group} ms ${ms}`);
        assert.equal(new Set(paged).size, paged.length, 'no repeat');
      }
    }
});

test('order=cnpj keeps the CNPJ order and the exact words; the relevance order holds the same establishments and more', () => {
  const q = 'banco brasil';
  const byCnpj = m.search.search({ q }, { limit: 100 }).cnpjs;
  assert.deepEqual(byCnpj, [...byCnpj].sort());
  const relevance = ranked({ q }, 100, false);
  assert.deepEqual([...relevance].sort(), byCnpj);
  assert.throws(() => m.search.ranked({ q }, { limit: 10, after: byCnpj[0] }), /cursor/);
});

test('an exact tier lists at most EXACT_ROOTS companies per part; the other names equal to the query follow, none lost', () => {
  const items = m.search.ranked({ q: 'padaria mesmo nome ltda' }, { limit: 100, group: true }).items;
  const same = items.filter((i) => Number(i.cnpj.slice(0, 8)) >= 90000100 && Number(i.cnpj.slice(0, 8)) < 90000140);
  assert.equal(new Set(same.map((i) => i.cnpj)).size, 40, 'all forty, once each');
  const exact = same.filter((i) => i.tier === 0).length;
  assert.ok(exact > 0 && exact <= EXACT_ROOTS * 2, `${exact} in the exact tier (2 parts)`);
  assert.ok(
    same.slice(exact).every((i) => i.tier === 1),
    'then the words tier',
  );
});

test('forgiving words: one edit, two in a long word, joined and split words, ranked below exact matches', () => {
  // One letter changed (a word the vocabulary does not hold).
  assert.equal(ranked({ q: 'MAGAZINE ZUBIRANTA' })[0].slice(0, 8), '90000007');
  // Two edits in a word of 8+ letters.
  assert.equal(ranked({ q: 'magazine zubiramta' })[0].slice(0, 8), '90000007');
  // Letters swapped.
  assert.equal(ranked({ q: 'magazine zubirnada' })[0].slice(0, 8), '90000007');
  // Two words joined, one word split.
  assert.equal(ranked({ q: 'FITLAB ACADEMIA' })[0].slice(0, 8), '90000005');
  assert.equal(ranked({ q: 'fit lab sistemas' })[0].slice(0, 8), '90000006');
  // A correction is only tried for a word of 5+ letters.
  assert.deepEqual(ours(ranked({ q: 'fot lab academia' })), []);
  // A known word is corrected only when the query as typed finds nothing: "banco" stays "banco".
  assert.ok(ours(ranked({ q: 'banco' })).every((r) => COMPANIES[r][0].includes('BANCO')));
});

test('suggest: companies for a name being typed, one per root, best first, narrowed by filters', () => {
  const s = m.search.suggest({ q: 'banco do bra' }, 10);
  assert.equal(s[0], makeCnpj('90000001', '0001'));
  assert.equal(new Set(roots(s)).size, s.length);
  assert.equal(m.search.suggest({ q: 'banco do bra' }, 1).length, 1);
  assert.equal(m.search.suggest({ q: 'zubir' }, 5)[0].slice(0, 8), '90000007');
  assert.equal(m.search.suggest({ q: 'magazine zubiranta' }, 5)[0].slice(0, 8), '90000007');
  const mg = m.search.suggest({ q: 'fit', uf: ['MG'] }, 10);
  assert.ok(mg.length >= 1 && mg.every((c) => ['90000005', '90000006'].includes(c.slice(0, 8)) || c.length === 14));
  assert.throws(
    () => m.search.suggest({ q: 'banco' }, 21),
    (e: { param?: string }) => e.param === 'limit',
  );
});
