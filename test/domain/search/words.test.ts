// Name words: normalisation (one function for the build and the queries), accents and case on a
// small month written here (Latin-1, as the Receita's), the prefix rule of the last word and its
// fallback, and query text that is FTS5 syntax (it must stay words).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { normalizeText } from '../../../src/domain/search/normalize.ts';
import { checkDigits } from '../../../src/domain/cnpj.ts';
import { MAX_EXPANSION } from '../../../src/domain/search/match.ts';
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
  db.exec("CREATE VIRTUAL TABLE t USING fts5(doc, content='', detail=none, columnsize=0, tokenize='ascii tokenchars _')");
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

const cnpj = (base: string, order = '0001') => base + order + checkDigits(base + order);
const est = (base: string, order: string, fantasia: string, uf = 'SP') =>
  rec(base, order, cnpj(base, order).slice(12), order === '0001' ? '1' : '2', fantasia, '02', '20200101', '00', '', '', '20200101', '4711302', '', 'RUA', 'A', '1', '', 'CENTRO', '01001000', uf, '7107', '', '', '', '', '', '', '', '', '');
const emp = (base: string, razao: string) => rec(base, razao, '2062', '49', '1000,00', '01', '');

const NAMES: [string, string, string][] = [
  ['11111111', 'PADARIA SÃO JOÃO LTDA', 'PÃO QUENTE'],
  ['22222222', 'SAO JOAO COMERCIO DE PAES LTDA', ''],
  ['33333333', 'JOANA DARC ACOUGUE ME', 'AÇOUGUE SÃO JOSÉ'],
  ['44444444', 'COMERCIAL JOSEFINA EIRELI', 'JÓIAS'],
  ['55555555', 'MARIA SANTOS 12345678901', ''],
  // `_` would make a filter term of a name word (`_usp`): such names are normalised first.
  ['77777777', 'LOJA _URJ CAFE', 'AGUA_M7107'],
  // Many words starting with "xy": past MAX_EXPANSION, the prefix falls back to FTS5's xy*.
  ...Array.from({ length: MAX_EXPANSION + 2 }, (_, i): [string, string, string] => [String(60000000 + i), `XY${i.toString(36).toUpperCase()}Q COMERCIO`, '']),
];

let m: Imported;
let dump: string;
before(async () => {
  dump = tempDir();
  writeZip(path.join(dump, 'Empresas0.zip'), 'K3241.K03200Y0.D60913.EMPRECSV', NAMES.map(([b, r]) => emp(b, r)).join(''));
  writeZip(path.join(dump, 'Estabelecimentos0.zip'), 'K3241.K03200Y0.D60913.ESTABELE', NAMES.map(([b, , f]) => est(b, '0001', f)).join('') + est('11111111', '0002', 'FILIAL DO PÃO', 'RJ'));
  m = await importMonth([dump], { searchParts: 1 });
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
  assert.deepEqual(m.search.search({ uf: ['RJ'] }, { limit: 100 }).cnpjs.map((c) => c.slice(0, 8)), ['11111111']);
});

test('the last word is also a prefix (2 characters or more); the others are exact', () => {
  assert.deepEqual(find('jo'), ['11111111', '11111111', '22222222', '33333333', '44444444'], 'joao, joana, jose, josefina, joias');
  assert.deepEqual(find('jos'), ['33333333', '44444444']);
  assert.deepEqual(find('josefina'), ['44444444']);
  assert.deepEqual(find('jos comercial'), [], 'jos is not the last word: exact, and no name holds it');
  assert.deepEqual(find('j'), [], 'one character: exact only');
  assert.deepEqual(find('sao j'), [], 'a last word of one character is exact');
  assert.deepEqual(find('1234'), ['55555555'], 'a prefix of digits (FTS5 prefix query)');
  const xy = find('xy');
  assert.equal(xy.length, MAX_EXPANSION + 2, 'past the expansion limit, xy* still finds them all');
  assert.deepEqual(find('comercio xy'), xy);
});

test('query text is never FTS5 syntax', () => {
  for (const q of ['"', 'ltda"', 'NEAR(sao joao)', 'sao OR joao', 'sao AND NOT joao', '*', 'joa*', '^sao', 'col:joao', '(((', "'; DROP TABLE x; --"]) {
    const r = q.replace(/[^\p{L}\p{N}]+/gu, '') === '' ? null : m.search.search({ q }, { limit: 10 });
    if (r) assert.ok(Array.isArray(r.cnpjs), q);
    else assert.throws(() => m.search.search({ q }, { limit: 10 }), /no word/);
  }
  assert.deepEqual(find('sao OR joao'), [], '"or" is a word here, and no name holds it');
  assert.deepEqual(find('joa*'), find('joa'));
});
