// Name words: normalisation (one function for the build and the queries), accents and case on a
// small month written here (Latin-1, as the Receita's), the prefix rule of the last word and its
// fallback, and query text that is FTS5 syntax (it must stay words).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { normalizeText } from '../../../src/domain/search/normalize.ts';
import { namePrefixTerms } from '../../../importer/search/name-prefixes.ts';
import { checkDigits } from '../../../src/domain/cnpj.ts';
import { MAX_EXPANSION, MAX_OR, PLAN_DEFAULTS } from '../../../src/domain/search/prefix.ts';
import { SearchIndex } from '../../../src/domain/search/index.ts';
import { attachSearch, attachSnapshot } from '../../../src/storage/snapshots/attach.ts';
import { SCAN_BUDGET } from '../../../src/domain/search/page.ts';
import { rec, tempDir, writeZip } from '../../importer/helpers.ts';
import { allPages, importMonth, type Imported } from './helpers.ts';
import fs from 'node:fs';
import { openSqlite } from '../../../src/storage/sqlite.ts';
import { Rng } from '../../../src/demo/prng.ts';

test('normalisation: accents, case, punctuation, compatibility forms', () => {
  assert.equal(normalizeText('SÃO JOÃO'), 'sao joao');
  assert.equal(normalizeText('  Açaí-da_Praça  nº 1 '), 'acai da praca no 1');
  assert.equal(normalizeText('ＡＢＣ ﬁno'), 'abc fino');
  assert.equal(normalizeText('İSTANBUL'), 'istanbul');
  assert.equal(normalizeText('"ltda" OR x* NEAR(a b) ^c'), 'ltda or x near a b c');
  assert.equal(normalizeText('***'), '');
});

test('the FTS tokenizer splits plain-ASCII names exactly as normalizeText (the build relies on it)', () => {
  const db = openSqlite(':memory:');
  db.exec(
    "CREATE VIRTUAL TABLE t USING fts5(doc, content='', detail=none, columnsize=0, tokenize='ascii tokenchars _')",
  );
  db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')");
  const r = new Rng(14);
  const alphabet = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^`abcdefghijklmnopqrstuvwxyz{|}~';
  for (let i = 1; i <= 300; i++) {
    let s = '';
    for (let k = r.int(40); k > 0; k--) s += alphabet[r.int(alphabet.length)];
    db.exec("INSERT INTO t (t) VALUES ('delete-all')");
    db.prepare('INSERT INTO t (rowid, doc) VALUES (1, ?)').run(s);
    const tokens = (db.prepare('SELECT term FROM v').pluck().all() as string[]).sort();
    const expected = [...new Set(normalizeText(s).split(' ').filter(Boolean))].sort();
    assert.deepEqual(tokens, expected, JSON.stringify(s));
  }
  db.close();
});

test('name prefix terms: the first 3 characters of each word of the names that starts with a letter', () => {
  assert.equal(namePrefixTerms('OPEN KNOWLEDGE BRASIL', 'A.B. CAFÉ'), ' _wope _wkno _wbra _wcaf');
  assert.equal(
    namePrefixTerms('26.775.009 JOAO 1ABC DE LI-MA', null),
    ' _wjoa',
    'digits first, or shorter than 3: none',
  );
  assert.equal(
    namePrefixTerms('AÇOUGUE SÃO JOSÉ', 'LOJA_URJ'),
    ' _waco _wsao _wjos _wloj _wurj',
    'accents and `_`: normalised first',
  );
  assert.equal(namePrefixTerms(null, 42), '');
  // Random names: the terms of the words normalizeText makes (the words the document holds).
  const r = new Rng(15);
  const alphabet =
    ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~ÇÃÉçãé';
  const name = () => Array.from({ length: r.int(40) }, () => alphabet[r.int(alphabet.length)]).join('');
  for (let i = 0; i < 500; i++) {
    const [a, b] = [name(), name()];
    const expected = normalizeText(`${a} ${b}`)
      .split(' ')
      .filter((w) => w.length >= 3 && /^[a-z]/.test(w))
      .map((w) => ` _w${w.slice(0, 3)}`)
      .join('');
    assert.equal(namePrefixTerms(a, b), expected, JSON.stringify([a, b]));
  }
});

const cnpj = (base: string, order = '0001') => base + order + checkDigits(base + order);
const est = (base: string, order: string, fantasia: string, uf = 'SP') =>
  rec(
    base,
    order,
    cnpj(base, order).slice(12),
    order === '0001' ? '1' : '2',
    fantasia,
    '02',
    '20200101',
    '00',
    '',
    '',
    '20200101',
    '4711302',
    '',
    'RUA',
    'A',
    '1',
    '',
    'CENTRO',
    '01001000',
    uf,
    '7107',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
  );
const emp = (base: string, razao: string) => rec(base, razao, '2062', '49', '1000,00', '01', '');

const NAMES: [string, string, string][] = [
  ['11111111', 'PADARIA SÃO JOÃO LTDA', 'PÃO QUENTE'],
  ['22222222', 'SAO JOAO COMERCIO DE PAES LTDA', ''],
  ['33333333', 'JOANA DARC ACOUGUE ME', 'AÇOUGUE SÃO JOSÉ'],
  ['44444444', 'COMERCIAL JOSEFINA EIRELI', 'JÓIAS'],
  ['55555555', 'MARIA SANTOS 12345678901', ''],
  // `_` would make a filter term of a name word (`_usp`): such names are normalised first.
  ['77777777', 'LOJA _URJ CAFE', 'AGUA_M7107'],
  // Prefixes of too many words, checked on the rows' names (prefix.ts): "xyab" has more than
  // MAX_OR (checked, then `xyab*`), "qwer" more than MAX_EXPANSION (checked, then the OR of its
  // words, once the checks of the "zz" rows before them cost what those forms should). Some hold
  // it only in the nome fantasia, after another word; one only inside words (no match). The
  // checks' candidates hold the name prefix term of the first three letters (`_wxya`, `_wqwe`),
  // as the "zz" rows do (XYAZ QWEZ) without the prefix; 2 and 3 letters are exact terms.
  ...Array.from({ length: MAX_OR + 2 }, (_, i): [string, string, string] => [
    String(60000000 + i),
    i % 3 === 0 ? 'LOJA COMERCIO' : `XYAB${i.toString(36).toUpperCase()}Q COMERCIO`,
    i % 3 === 0 ? `BAR XYAB${i}` : '',
  ]),
  ...Array.from({ length: SCAN_BUDGET + 100 }, (_, i): [string, string, string] => [
    String(50000000 + i),
    'XYAZ QWEZ COMERCIO',
    '',
  ]),
  ...Array.from({ length: MAX_EXPANSION + 2 }, (_, i): [string, string, string] => [
    String(70000000 + i),
    `QWER${i.toString(36).toUpperCase()} COMERCIO`,
    i % 2 ? 'LOJA' : '',
  ]),
  ['99999999', 'AXYZ COMERCIO', 'LOJAXY'],
];

let m: Imported;
let dump: string;
before(async () => {
  dump = tempDir();
  writeZip(
    path.join(dump, 'Empresas0.zip'),
    'K3241.K03200Y0.D60913.EMPRECSV',
    NAMES.map(([b, r]) => emp(b, r)).join(''),
  );
  writeZip(
    path.join(dump, 'Estabelecimentos0.zip'),
    'K3241.K03200Y0.D60913.ESTABELE',
    NAMES.map(([b, , f]) => est(b, '0001', f)).join('') + est('11111111', '0002', 'FILIAL DO PÃO', 'RJ'),
  );
  // Partners: "maria" with a heavy prefix (xy, qw) or not; the zz ones are rejected by a check.
  // SCAN_BUDGET "JOSE ZZ" rows first: a lone xy (more than MAX_OR words) is then rejected past its
  // budget on the first page and goes on with xy* (partners.ts).
  const lead = Array.from({ length: SCAN_BUDGET + 10 }, () => ['50000000', 'JOSE ZZ']);
  const partners = [
    ...lead,
    ...NAMES.filter(([b]) => Number(b) >= 50000000).map(([b, r]) => [b, `MARIA ${r.split(' ')[0]}`]),
  ].map(([b, n], i) =>
    rec(b, '2', `${n} SILVA`, `***${String(i).padStart(6, '0')}**`, '49', '20200101', '', '', '', '', '4'),
  );
  writeZip(path.join(dump, 'Socios0.zip'), 'K3241.K03200Y0.D60913.SOCIOCSV', partners.join(''));
  m = await importMonth([dump], { searchParts: 2 });
});
after(() => {
  m?.close();
  fs.rmSync(dump, { recursive: true, force: true });
});

const find = (q: string) => allPages(m.search, { q }, 100).cnpjs.map((c) => c.slice(0, 8));

test('accents and case: "sao joao" finds SÃO JOÃO and SAO JOAO; each word from either name', () => {
  assert.deepEqual(find('sao joao'), ['11111111', '11111111', '22222222']);
  assert.deepEqual(find('SÃO JOÃO'), find('sao joao'));
  assert.deepEqual(find('pão quente'), ['11111111']);
  assert.deepEqual(find('pao padaria'), ['11111111', '11111111'], 'pao (nome fantasia) + padaria (razão social)');
  assert.deepEqual(find('açougue são josé'), ['33333333']);
  assert.deepEqual(find('acougue joana'), ['33333333']);
  assert.deepEqual(find('12345678901'), ['55555555'], 'digits are words too');
  assert.deepEqual(find('loja urj agua m7107'), ['77777777']);
  assert.equal(m.search.count({ uf: ['SP'] }).count, NAMES.length, 'every establishment but the RJ branch');
  assert.deepEqual(
    m.search.search({ uf: ['RJ'] }, { limit: 100 }).cnpjs.map((c) => c.slice(0, 8)),
    ['11111111'],
  );
});

test('legal forms and connectors are never required: LTDA, S/A, S.A., ME, EPP, EIRELI, DE…', () => {
  const padaria = ['11111111', '11111111'];
  assert.deepEqual(find('padaria sao joao'), padaria);
  assert.deepEqual(find('Padaria São João S/A'), padaria, 'S/A for a LTDA');
  assert.deepEqual(find('PADARIA SAO JOAO S.A.'), padaria);
  assert.deepEqual(find('padaria sao joao sa'), padaria);
  assert.deepEqual(find('padaria de sao joao eireli'), padaria);
  assert.deepEqual(find('sao joao comercio paes'), ['22222222'], 'without DE and LTDA');
  assert.deepEqual(find('sao joao comercio de paes ltda'), ['22222222']);
  assert.deepEqual(find('JOANA DARC AÇOUGUE EPP'), ['33333333'], 'EPP for a ME');
  assert.deepEqual(find('comercial josefina & cia'), ['44444444']);
  // Only legal forms and connectors: then they are the query.
  assert.deepEqual(find('ltda'), ['11111111', '11111111', '22222222']);
  assert.deepEqual(m.search.count({ q: 'padaria sao joao s/a' }), { count: 2, exact: true, source: 'index' });
});

test('the last word is also a prefix (2 characters or more); the others are exact', () => {
  assert.deepEqual(
    find('jo'),
    ['11111111', '11111111', '22222222', '33333333', '44444444'],
    'joao, joana, jose, josefina, joias',
  );
  assert.deepEqual(find('jos'), ['33333333', '44444444']);
  assert.deepEqual(find('josefina'), ['44444444']);
  assert.deepEqual(find('jos comercial'), [], 'jos is not the last word: exact, and no name holds it');
  assert.deepEqual(find('j'), [], 'one character: exact only');
  assert.deepEqual(find('sao j'), [], 'a last word of one character is exact');
  assert.deepEqual(find('1234'), ['55555555'], 'a prefix of digits (FTS5 prefix query)');
  const xy = find('xyab');
  assert.equal(xy.length, MAX_OR + 2, 'past the expansion limit, the rows checked still find them all');
  assert.deepEqual(find('comercio xyab'), xy);
  assert.equal(find('xy').length, MAX_OR + 2 + SCAN_BUDGET + 100, 'two letters: xyab and xyaz');
  assert.deepEqual(find('xya'), find('xy'));
});

/** The "xyab" and "qwer" cases: prefixes of more than MAX_EXPANSION words; their starts. */
const HEAVY = [
  { q: 'xyab' },
  { q: 'comercio xyab' },
  { q: 'loja xyab' },
  { q: 'xyab', uf: ['SP'] },
  { q: 'xyab', uf: ['RJ'] },
  { q: 'bar xyab' },
  { q: 'qwer' },
  { q: 'comercio qwer' },
  { q: 'loja qwer' },
  { q: 'qwer', uf: ['SP'] },
  { q: 'xyab', inicio_atividade_min: '2019-06-15', inicio_atividade_max: '2021-01-01' },
  { q: 'xy' },
  { q: 'comercio xy', uf: ['SP'] },
  { q: 'qw' },
  { q: 'xya' },
  { q: 'comercio xya', uf: ['SP'] },
];

test("a prefix of too many words held by few establishments is FTS5's `word*`: the oracle's answers, exact counts", () => {
  // Each part's vocabulary counts the establishments and the partner rows holding each word.
  const docs = (w: string, column: 'est_docs' | 'partner_docs') =>
    ['search.db', 'search-1.db'].reduce((n, f) => {
      const db = openSqlite(path.join(m.summary.dir, f), { readonly: true });
      try {
        return (
          n +
          ((db.prepare(`SELECT ${column} FROM vocabulary WHERE term = ?`).pluck().get(w) as number | undefined) ?? 0)
        );
      } finally {
        db.close();
      }
    }, 0);
  assert.equal(docs('comercio', 'est_docs'), m.oracle.companies({ q: 'comercio' }).length);
  assert.equal(docs('comercio', 'partner_docs'), 0);
  assert.equal(
    docs('maria', 'est_docs'),
    m.oracle.companies({ q: 'maria' }).length,
    'a word of company and partner names',
  );
  assert.equal(docs('maria', 'partner_docs'), m.oracle.partners({ nome: 'maria' }, () => true).length);
  assert.deepEqual(m.search.plan({ q: 'comercio xyab' }).clauses.at(-1), { param: 'q', terms: [], prefix: 'xyab' });
  for (const f of HEAVY) {
    const expected = m.oracle.companies(f);
    for (const limit of [7, 100])
      assert.deepEqual(allPages(m.search, f, limit).cnpjs, expected, `${JSON.stringify(f)} limit ${limit}`);
    assert.deepEqual(m.search.count(f), { count: expected.length, exact: true, source: 'index' }, JSON.stringify(f));
  }
  // A first page is never cut short by rejections: the ZZ rows are not candidates.
  assert.deepEqual(
    m.search.search({ q: 'comercio qwer' }, { limit: 20 }).cnpjs,
    m.oracle.companies({ q: 'comercio qwer' }).slice(0, 20),
  );
});

test("an index built before the words' counts and the prefix terms checks such a prefix on the rows, with the same answers", () => {
  const dir = tempDir();
  const sqlite = openSqlite(':memory:');
  try {
    for (const f of ['search.db', 'search-1.db']) {
      fs.copyFileSync(path.join(m.summary.dir, f), path.join(dir, f));
      const db = openSqlite(path.join(dir, f));
      db.exec('ALTER TABLE vocabulary DROP COLUMN est_docs');
      db.exec('ALTER TABLE vocabulary DROP COLUMN partner_docs');
      // Without the key that says the documents hold name prefix terms (those stay, unread).
      if (f === 'search.db') db.exec("DELETE FROM meta WHERE key = 'name_prefix_terms'");
      db.close();
    }
    attachSnapshot(sqlite, m.summary.dir);
    assert.deepEqual(attachSearch(sqlite, dir), { parts: 2 });
    const old = new SearchIndex({
      search: { sqlite, parts: ['srch', 'srch1'] },
      codeTables: m.registry.snapshot!.codeTables,
    });
    assert.equal(old.plan({ q: 'comercio xy' }).clauses.at(-1)!.checked, true);
    assert.deepEqual(old.plan({ q: 'xyab' }).clauses, [{ param: 'q', terms: [], prefix: 'xyab', checked: true }]);
    assert.equal(old.plan({ q: 'xya' }).clauses[0].checked, true);
    for (const f of [{ q: 'comercio xy' }, { q: 'qw', uf: ['SP'] }, { q: 'xya' }, { q: 'xyab', uf: ['SP'] }])
      assert.deepEqual(allPages(old, f, 7).cnpjs, m.oracle.companies(f), JSON.stringify(f));
  } finally {
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a prefix of too many words, checked on the rows: the oracle's answers, pages, counts", () => {
  // The bounds at 0: the row checks whatever the words' counts (on a full month, prefixes of
  // more than PREFIX_FALLBACK_DOCS establishments).
  const checked = new SearchIndex(m.registry.snapshot!, {
    ...PLAN_DEFAULTS,
    prefixQueryDocs: 0,
    prefixFallbackDocs: 0,
  });
  assert.deepEqual(checked.plan({ q: 'comercio xyab' }).clauses.at(-1), {
    param: 'q',
    terms: [],
    prefix: 'xyab',
    checked: true,
  });
  // Two and three letters are terms of the index, never checked; a longer prefix is checked on
  // the names that hold a word starting with its first three letters.
  assert.deepEqual(checked.plan({ q: 'xya' }).clauses, [{ param: 'q', terms: ['_wxya'] }]);
  assert.equal(checked.plan({ q: 'xy' }).clauses[0].terms.length, 37);
  assert.deepEqual(checked.plan({ q: 'comercio xyab' }).clauses, [
    { param: 'q', terms: ['comercio'] },
    { param: 'q', terms: ['_wxya'] },
    { param: 'q', terms: [], prefix: 'xyab', checked: true },
  ]);
  for (const f of HEAVY) {
    const expected = m.oracle.companies(f);
    for (const limit of [1, 7, 100])
      assert.deepEqual(allPages(checked, f, limit).cnpjs, expected, `${JSON.stringify(f)} limit ${limit}`);
    assert.deepEqual(checked.count(f), { count: expected.length, exact: true, source: 'index' }, JSON.stringify(f));
  }
  assert.equal(m.oracle.companies({ q: 'loja xyab' }).length, Math.ceil((MAX_OR + 2) / 3), 'xyab in the nome fantasia');
  assert.equal(m.oracle.companies({ q: 'comercio qwer' }).length, MAX_EXPANSION + 2);
  // The first page of "comercio qwer" checks the SCAN_BUDGET zz rows first. Once the checks took
  // what the OR of the qwer words should (here at once), the OR goes on and fills the page; when
  // the OR would cost more than the checks (here an hour), they end the page empty, with a cursor.
  const quickOr = new SearchIndex(m.registry.snapshot!, { ...PLAN_DEFAULTS, prefixQueryDocs: 0, orMsPerWord: 1e-9 });
  assert.deepEqual(
    quickOr.search({ q: 'comercio qwer' }, { limit: 20 }).cnpjs,
    m.oracle.companies({ q: 'comercio qwer' }).slice(0, 20),
  );
  const slowOr = new SearchIndex(m.registry.snapshot!, {
    ...PLAN_DEFAULTS,
    prefixQueryDocs: 0,
    orMsPerWord: 3_600_000,
  });
  const empty = slowOr.search({ q: 'comercio qwer' }, { limit: 20 });
  assert.equal(empty.cnpjs.length, 0);
  assert.ok(empty.next !== null && empty.next < '6', 'the cursor stops among the zz rows');
  assert.equal(checked.count({ q: 'xyab' }, { bound: 10 }).exact, false);
  // "comercio xyab": the SCAN_BUDGET zz rows come first. Checked only, the first page stops empty
  // with a cursor; so it does when `xyab*` would cost more than those checks (here: an hour).
  // Once the checks took what `xyab*` should (~1 ms: ~2,000 documents), it goes on with `xyab*` and
  // fills the page (and a count is exact).
  const slowStar = new SearchIndex(m.registry.snapshot!, {
    ...PLAN_DEFAULTS,
    prefixQueryDocs: 0,
    starMsPerDoc: 3_600_000,
  });
  for (const engine of [checked, slowStar]) {
    const short = engine.search({ q: 'comercio xyab' }, { limit: 20 });
    assert.equal(short.cnpjs.length, 0);
    assert.ok(short.next !== null && short.next < '6', 'the cursor stops among the zz rows');
  }
  const fallback = new SearchIndex(m.registry.snapshot!, { ...PLAN_DEFAULTS, prefixQueryDocs: 0 });
  assert.equal(
    fallback.plan({ q: 'comercio xyab' }).clauses.at(-1)!.switchMs,
    m.oracle.companies({ q: 'xyab' }).length * PLAN_DEFAULTS.starMsPerDoc,
  );
  assert.deepEqual(
    fallback.search({ q: 'comercio xyab' }, { limit: 20 }).cnpjs,
    m.oracle.companies({ q: 'comercio xyab' }).slice(0, 20),
  );
  for (const f of HEAVY) {
    const expected = m.oracle.companies(f);
    assert.deepEqual(allPages(fallback, f, 7).cnpjs, expected, JSON.stringify(f));
    assert.deepEqual(fallback.count(f), { count: expected.length, exact: true, source: 'index' }, JSON.stringify(f));
  }
});

test('partners: a prefix of too many words is checked on the names, with another word to drive it', () => {
  // The bound at 0: the checks whatever the words' counts (on a full month, commoner prefixes).
  const checked = new SearchIndex(m.registry.snapshot!, { ...PLAN_DEFAULTS, prefixQueryDocs: 0 });
  const walk = (nome: string, limit: number, engine = checked) => {
    const ids: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10_000; i++) {
      const page = engine.partners({ nome }, { limit, after, order: 'table' });
      ids.push(...page.rows.map((r) => Number(r.cnpj_cpf_socio.slice(3, 9))));
      if (page.next === null) return ids;
      after = page.next;
    }
    throw new Error('runaway paging');
  };
  for (const nome of ['maria xy', 'maria qw', 'silva qw', 'xy', 'qw', 'maria xyaz']) {
    const expected = m.oracle
      .partners({ nome }, () => true)
      .map((rowid) =>
        Number(
          (m.oracle.db.prepare('SELECT cnpj_cpf FROM reg.partners WHERE rowid = ?').pluck().get(rowid) as string).slice(
            3,
            9,
          ),
        ),
      );
    assert.ok(expected.length > 0, nome);
    for (const limit of [1, 20, 100]) assert.deepEqual(walk(nome, limit), expected, `${nome} limit ${limit}`);
    // By default these few partner rows make each prefix `word*`: the same rows.
    assert.deepEqual(walk(nome, 20, m.search), expected, `${nome} by default`);
  }
  // Alone, xy is checked on the partners table's rows: past SCAN_BUDGET "jose zz" rows it goes
  // on with xy*, and still fills the page.
  assert.equal(checked.partners({ nome: 'xy' }, { limit: 20 }).rows.length, 20);
  // With another word to drive it, the same rejections end the page early, empty, with a cursor;
  // by default, xy in ~2,000 partner rows is `xy*` at once: a full page.
  const short = checked.partners({ nome: 'silva xy' }, { limit: 20 });
  assert.equal(short.rows.length, 0);
  assert.notEqual(short.next, null);
  assert.equal(m.search.partners({ nome: 'silva xy' }, { limit: 20 }).rows.length, 20);
  // The zz partners come first: "maria qw" rejects PROBE_BUDGET of them, then goes on with the OR.
  assert.equal(checked.partners({ nome: 'maria qw' }, { limit: 20 }).rows.length, 20);
});

test('query text is never FTS5 syntax', () => {
  for (const q of [
    '"',
    'ltda"',
    'NEAR(sao joao)',
    'sao OR joao',
    'sao AND NOT joao',
    '*',
    'joa*',
    '^sao',
    'col:joao',
    '(((',
    "'; DROP TABLE x; --",
  ]) {
    const r = q.replace(/[^\p{L}\p{N}]+/gu, '') === '' ? null : m.search.search({ q }, { limit: 10 });
    if (r) assert.ok(Array.isArray(r.cnpjs), q);
    else assert.throws(() => m.search.search({ q }, { limit: 10 }), /no word/);
  }
  assert.deepEqual(find('sao OR joao'), [], '"or" is a word here, and no name holds it');
  assert.deepEqual(find('joa*'), find('joa'));
});
