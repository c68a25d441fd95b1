// The query plan without a database (a fake index), and the CNPJ ↔ rowid encoding.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compilePlan } from '../../../src/domain/search/match.ts';
import { matchSql, type IndexTables } from '../../../src/domain/search/plan.ts';
import {
  MAX_EXPANSION,
  MAX_OR,
  PLAN_DEFAULTS,
  PREFIX_FALLBACK_DOCS,
  PREFIX_QUERY_DOCS,
  OR_MS_PER_WORD,
  STAR_MS_PER_DOC,
  wordClauses,
} from '../../../src/domain/search/prefix.ts';
import { ALNUM_BASE, boundsAfter, cnpjOfRowid, rowidOfCnpj } from '../../../src/domain/search/rowid.ts';
import { capitalBucket, capitalBucketRange, LAST_CAPITAL_BUCKET, term } from '../../../src/domain/search/terms.ts';
import { makeCnpj } from '../../../src/domain/cnpj.ts';

const years = new Map<string, number>();
for (let y = 2018; y <= 2021; y++) {
  years.set(term.inicio(y), 12);
  for (let mo = 1; mo <= 12; mo++) years.set(term.inicio(y * 100 + mo), 1);
}
const buckets = new Map([-1, ...Array.from({ length: 30 }, (_, i) => i)].map((b) => [term.capital(b), 1]));
const fake: IndexTables = {
  wordsWithPrefix: (p) => ['joana', 'joao', 'jose'].filter((w) => w.startsWith(p)),
  termsWithPrefix: () => [],
  cnaeCodes: () => [4711301, 4711302],
  municipioCodes: () => [7107],
  rangeTerms: (kind) => (kind === '_y' ? years : buckets),
  prefixDocuments: () => 3,
  prefixIndex: () => null,
};

test('whole years and months need no check; only the months cut by the range do', () => {
  const [r] = compilePlan({ inicio_atividade_min: '2019-03-15', inicio_atividade_max: '2020-12-31' }, fake).ranges;
  assert.deepEqual(r.cut, ['_y201903']);
  assert.deepEqual(
    r.whole.sort(),
    ['_y2020', ...Array.from({ length: 9 }, (_, i) => `_y2019${String(i + 4).padStart(2, '0')}`)].sort(),
  );
  const [aligned] = compilePlan(
    { inicio_atividade_min: '2019-01-01', inicio_atividade_max: '2019-02-28' },
    fake,
  ).ranges;
  assert.deepEqual([aligned.whole, aligned.cut], [['_y201901', '_y201902'], []]);
});

test('capital buckets: 1-2-5 per power of ten; round amounts need no check', () => {
  assert.equal(capitalBucket(0), -1);
  assert.equal(capitalBucket(1), 0);
  assert.equal(capitalBucket(199), 6);
  assert.equal(capitalBucket(200), 7);
  assert.equal(capitalBucket(500), 8);
  assert.equal(capitalBucket(1e30), LAST_CAPITAL_BUCKET);
  for (let b = -1; b < LAST_CAPITAL_BUCKET; b++) {
    const [low, high] = capitalBucketRange(b);
    if (high > Number.MAX_SAFE_INTEGER) break; // cents past 2^53 are not exact numbers (nor real capitals)
    assert.equal(capitalBucket(low), b);
    assert.equal(capitalBucket(high - 1), b);
    assert.equal(capitalBucket(high), b + 1);
  }
  const [r] = compilePlan({ capital_social_min: 10_000, capital_social_max: 49_999.99 }, fake).ranges;
  assert.deepEqual(r.cut, []);
  assert.deepEqual(r.whole, [term.capital(capitalBucket(1_000_000)), term.capital(capitalBucket(2_000_000))]);
  const [cut] = compilePlan({ capital_social_min: 15_000 }, fake).ranges;
  assert.deepEqual(cut.cut, [term.capital(capitalBucket(1_500_000))]);
});

test('terms are quoted; prefixes expand to exact words; invalid values name their parameter', () => {
  const p = compilePlan(
    { q: 'São "jo', uf: ['sp'], cnae: ['4711', '47'], cnae_secundario: true, municipio: ['sao paulo'] },
    fake,
  );
  assert.equal(
    matchSql(p.clauses),
    '"sao" AND ("jo" OR "joana" OR "joao" OR "jose") AND "_usp" AND "_m7107" AND ("_c4711301" OR "_c4711302" OR "_d4711301" OR "_d4711302" OR "_c47")',
  );
  // The yes/no filters share one term of 16 values: two of them given leave 4.
  const flags = compilePlan({ has_email: true, opc_mei: false }, fake).clauses;
  assert.equal(flags.length, 1);
  assert.deepEqual(flags[0].terms, ['_b4', '_b5', '_b12', '_b13']);
  for (const [f, param] of [
    [{ uf: ['S"'] }, 'uf'],
    [{ cep: ['1'] }, 'cep'],
    [{ cep: ['12a'] }, 'cep'],
    [{ cnae: ['123456789'] }, 'cnae'],
    [{ situacao_cadastral: ['viva'] }, 'situacao_cadastral'],
    [{ natureza_juridica: [1.5] }, 'natureza_juridica'],
    [{ inicio_atividade_min: '2023-02-30' }, 'inicio_atividade_min'],
    [{ capital_social_max: -1 }, 'capital_social_max'],
    [{ q: '!!!' }, 'q'],
  ] as const) {
    assert.throws(() => compilePlan(f as never, fake), { name: 'InvalidFilter', param }, JSON.stringify(f));
  }
});

test('a prefix of too many words: `word*` when few establishments hold it, else checked on the rows', () => {
  // "ca": MAX_EXPANSION + 1 words; "ma": more than MAX_OR. Their document counts decide.
  const words = (p: string) =>
    Array.from({ length: p === 'ca' ? MAX_EXPANSION + 1 : MAX_OR + 1 }, (_, i) => `${p}${i.toString(36)}`);
  const withDocs = (docs: number | null): IndexTables => ({
    ...fake,
    wordsWithPrefix: words,
    prefixDocuments: (_p, max) => (docs === null ? null : Math.min(docs, max + 1)),
  });
  const clauseOf = (q: string, ix: IndexTables, opts = PLAN_DEFAULTS) =>
    wordClauses('q', q, ix, 'establishments', opts).at(-1)!;
  assert.deepEqual(clauseOf('loja ma', withDocs(PREFIX_QUERY_DOCS)), { param: 'q', terms: [], prefix: 'ma' });
  assert.deepEqual(clauseOf('loja ca', withDocs((MAX_EXPANSION + 1) * 120)), { param: 'q', terms: [], prefix: 'ca' });
  assert.equal(matchSql(compilePlan({ q: 'loja ma' }, withDocs(1_000)).clauses), '"loja" AND "ma"*');
  // More establishments: checked, then its words' OR (≤ MAX_OR words) or `word*` (PREFIX_FALLBACK_DOCS).
  assert.equal(clauseOf('ca', withDocs((MAX_EXPANSION + 1) * 120 + 1)).checked, true);
  for (const docs of [PREFIX_QUERY_DOCS + 1, PREFIX_FALLBACK_DOCS]) {
    assert.equal(clauseOf('ca', withDocs(docs)).checked, true);
    assert.equal(clauseOf('ca', withDocs(docs)).terms.length, MAX_EXPANSION + 2);
    assert.equal(clauseOf('ca', withDocs(docs)).switchMs, (MAX_EXPANSION + 2) * OR_MS_PER_WORD);
    assert.deepEqual(clauseOf('ma', withDocs(docs)), {
      param: 'q',
      terms: [],
      prefix: 'ma',
      checked: true,
      switchMs: docs * STAR_MS_PER_DOC,
    });
  }
  // Commoner still, an index without counts, or the bounds off: checked only (with its words when ≤ MAX_OR).
  const off = { ...PLAN_DEFAULTS, prefixQueryDocs: 0, prefixFallbackDocs: 0 };
  for (const [ix, opts] of [
    [withDocs(PREFIX_FALLBACK_DOCS + 1), PLAN_DEFAULTS],
    [withDocs(null), PLAN_DEFAULTS],
    [withDocs(1), off],
  ] as const) {
    assert.equal(clauseOf('ca', ix, opts).terms.length, MAX_EXPANSION + 2);
    assert.deepEqual(clauseOf('ma', ix, opts), { param: 'q', terms: [], prefix: 'ma', checked: true });
  }
  // Fewer words: their OR, unless their documents are fewer than ~120 per word (`word*`, cheaper
  // than opening each word); up to 15 words, their OR whatever.
  const fewer = (n: number, docs: number): IndexTables => ({
    ...withDocs(docs),
    wordsWithPrefix: (p) => Array.from({ length: n }, (_, i) => `${p}${i.toString(36)}`),
  });
  assert.deepEqual(clauseOf('ve', fewer(100, 100 * 120)), { param: 'q', terms: [], prefix: 've' });
  assert.equal(clauseOf('ve', fewer(100, 100 * 120 + 1)).terms.length, 101);
  assert.equal(clauseOf('ve', fewer(15, 1)).terms.length, 16);
  // The counts asked are of the names searched: partner rows for `nome`.
  const asked: string[] = [];
  const spy: IndexTables = { ...withDocs(1), prefixDocuments: (_p, _max, names) => (asked.push(names), 1) };
  wordClauses('nome', 'ma', spy, 'partners');
  compilePlan({ q: 'ma' }, spy);
  assert.deepEqual(asked, ['partners', 'establishments']);
});

test('name prefix terms: a 3-letter last word is one term, a 2-letter one 37; a longer checked one gets its start as candidates', () => {
  const many = (p: string) => Array.from({ length: MAX_OR + 1 }, (_, i) => `${p}${i.toString(36)}`);
  const ix = (docs: number, indexed: number | null): IndexTables => ({
    ...fake,
    wordsWithPrefix: many,
    prefixDocuments: (_p, max) => Math.min(docs, max + 1),
    prefixIndex: () => indexed,
  });
  const common = PREFIX_FALLBACK_DOCS + 1;
  assert.equal(
    matchSql(compilePlan({ q: 'loja bra', uf: ['PR'] }, ix(common, 3)).clauses),
    '"loja" AND "_wbra" AND "_upr"',
  );
  // Checked: `_wbra` drives the candidates, `bras` is checked on them (and keeps its index form).
  const bras = compilePlan({ q: 'bras' }, ix(common, 3)).clauses;
  assert.deepEqual(bras, [
    { param: 'q', terms: ['_wbra'] },
    { param: 'q', terms: [], prefix: 'bras', checked: true },
  ]);
  const switching = compilePlan({ q: 'bras' }, ix(PREFIX_FALLBACK_DOCS, 3)).clauses;
  assert.deepEqual(
    switching.map((c) => [c.terms, c.checked ?? false]),
    [
      [['_wbra'], false],
      [[], true],
    ],
  );
  assert.equal(switching[1].switchMs, PREFIX_FALLBACK_DOCS * STAR_MS_PER_DOC);
  // Not checked, or no prefix terms, or digits: as before.
  assert.deepEqual(compilePlan({ q: 'bras' }, ix(1_000, 3)).clauses, [{ param: 'q', terms: [], prefix: 'bras' }]);
  assert.deepEqual(compilePlan({ q: 'bras' }, ix(common, null)).clauses, [
    { param: 'q', terms: [], prefix: 'bras', checked: true },
  ]);
  assert.equal(compilePlan({ q: 'bra' }, ix(common, null)).clauses[0].checked, true);
  // One letter shorter: the word or a prefix term of one more character, exactly.
  const br = compilePlan({ q: 'br' }, ix(common, 3)).clauses;
  assert.deepEqual(br, [
    { param: 'q', terms: ['br', ...[...'abcdefghijklmnopqrstuvwxyz0123456789'].map((c) => `_wbr${c}`)] },
  ]);
  assert.equal(compilePlan({ q: 'br' }, ix(common, null)).clauses[0].checked, true);
  assert.deepEqual(compilePlan({ q: '123' }, ix(common, 3)).clauses, [{ param: 'q', terms: [], prefix: '123' }]);
  // The partner table has its own answer.
  const asked: string[] = [];
  wordClauses('nome', 'bra', { ...ix(common, 3), prefixIndex: (names) => (asked.push(names), null) }, 'partners');
  assert.deepEqual(asked, ['partners']);
});

test('rowids: CNPJ order, numeric ones compact, alphanumeric ones after 10^12; bounds after any CNPJ', () => {
  const cnpjs = [
    '00000000000191',
    makeCnpj('12345678', '0001'),
    makeCnpj('1234567A', '0001'),
    makeCnpj('12345680', '0001'),
    makeCnpj('12ABC345', '01DE'),
    makeCnpj('99999999', '9999'),
    makeCnpj('A0000000', '0001'),
    makeCnpj('ZZZZZZZZ', 'ZZZZ'),
  ].sort();
  for (const c of cnpjs) assert.equal(cnpjOfRowid(rowidOfCnpj(c)), c);
  assert.equal(rowidOfCnpj('12345678000195'), 123456780001);
  assert.ok(BigInt(rowidOfCnpj(makeCnpj('1234567A', '0001'))) >= BigInt(ALNUM_BASE));
  for (const after of cnpjs) {
    const b = boundsAfter(after);
    for (const c of cnpjs) {
      const r = rowidOfCnpj(c);
      const beyond = typeof r === 'number' ? r > b.numeric : r > b.alnum;
      assert.equal(beyond, c > after, `${c} after ${after}`);
    }
  }
});
