// The synthetic month must give the search filters realistic shapes (issue 14): long-tailed name
// words with accents in a few, UFs and cities by population, a few very common CNAEs, most
// establishments not active, partners shared across companies. Rough bounds on a 20k dump.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDump } from '../../src/demo/generate.ts';

const COMPANIES = 20_000;
let dir: string;
let empresas: string[][];
let estabs: string[][];
let socios: string[][];

/** The rows of every shard of a family. quirkRate 0: no raw newline or `;` inside a field. */
function rows(family: string): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < 10; i++) {
    const text = execFileSync('unzip', ['-p', join(dir, `${family}${i}.zip`)], { maxBuffer: 1 << 28 }).toString(
      'latin1',
    );
    for (const line of text.split('\n')) if (line) out.push(line.slice(1, -1).split('";"'));
  }
  return out;
}

function count<T>(items: Iterable<T>): Map<T, number> {
  const m = new Map<T, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

const share = (n: number, of: number) => n / of;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shapes-'));
  await generateDump({ companies: COMPANIES, out: dir, seed: 3, quirkRate: 0 });
  empresas = rows('Empresas');
  estabs = rows('Estabelecimentos');
  socios = rows('Socios');
});

after(() => rmSync(dir, { recursive: true, force: true }));

test('name words: LTDA, COMERCIO, SERVICOS very common, a long tail of rare words, a few accented names', () => {
  const names = empresas.map((e) => e[1]).concat(estabs.map((e) => e[4]).filter(Boolean));
  const words = count(names.flatMap((n) => [...new Set(n.split(' '))].filter((w) => /^[A-ZÀ-Ý]{2,}$/.test(w))));
  const n = empresas.length;
  assert.ok(share(words.get('LTDA')!, n) > 0.25, 'LTDA');
  assert.ok(share(words.get('COMERCIO')!, n) > 0.1, 'COMERCIO');
  assert.ok(share(words.get('SERVICOS')!, n) > 0.06, 'SERVICOS');
  assert.ok(words.get('BRASIL')! > 200, 'the most frequent brand word');
  const once = [...words.values()].filter((c) => c === 1).length;
  assert.ok(once > 3000 && once > words.size * 0.6, `most distinct words are rare (${once} of ${words.size} once)`);
  const accented = empresas.filter((e) => /[^\x00-\x7f]/.test(e[1]));
  assert.ok(share(accented.length, n) > 0.005 && share(accented.length, n) < 0.05, `accented names ${accented.length}`);
  assert.ok(names.some((s) => /SÃO|JOÃO|AÇÚCAR|COMÉRCIO|SERVIÇOS/.test(s)));
  const emptyFantasia = estabs.filter((e) => e[4] === '').length;
  assert.ok(
    share(emptyFantasia, estabs.length) > 0.45 && share(emptyFantasia, estabs.length) < 0.65,
    'nome fantasia often empty',
  );
});

test('UFs and cities by population: SP about a fifth, the capital the largest city', () => {
  const uf = count(estabs.map((e) => e[19]));
  const n = estabs.length;
  assert.ok(share(uf.get('SP')!, n) > 0.19 && share(uf.get('SP')!, n) < 0.25, `SP ${uf.get('SP')}`);
  assert.ok(share(uf.get('MG')!, n) > 0.08 && share(uf.get('MG')!, n) < 0.12, `MG ${uf.get('MG')}`);
  assert.ok(share(uf.get('RR')!, n) < 0.008, `RR ${uf.get('RR')}`);
  const sp = count(estabs.filter((e) => e[19] === 'SP').map((e) => e[20]));
  const [top, topCount] = [...sp].sort((a, b) => b[1] - a[1])[0];
  assert.equal(top, '7107', 'São Paulo city first');
  assert.ok(share(topCount, uf.get('SP')!) > 0.18, 'the capital holds a big share of its UF');
  assert.ok(sp.size > 300, 'and most towns of the UF have some');
});

test('CNAE: a few very common subclasses and a long tail; 0 to 20 secondary ones, most 0-3', () => {
  const principal = count(estabs.map((e) => e[11]));
  const sorted = [...principal.values()].sort((a, b) => b - a);
  assert.ok(share(sorted[0], estabs.length) > 0.03, 'the most common subclass');
  assert.ok(principal.get('4781400')! > principal.get('6204000')!, 'clothing retail above IT consulting');
  assert.ok(principal.size > 500, `distinct principal CNAEs ${principal.size}`);
  assert.ok(sorted.filter((c) => c <= 3).length > 100, 'many rare subclasses');
  const secondary = estabs.map((e) => (e[12] ? e[12].split(',').length : 0));
  assert.ok(share(secondary.filter((k) => k <= 3).length, secondary.length) > 0.85);
  assert.ok(Math.max(...secondary) >= 10 && Math.max(...secondary) <= 20);
});

test('situação: most establishments are not active', () => {
  const sit = count(estabs.map((e) => e[5]));
  const n = estabs.length;
  const s = (k: string) => share(sit.get(k) ?? 0, n);
  assert.ok(s('02') > 0.38 && s('02') < 0.48, `ativa ${s('02')}`);
  assert.ok(s('08') > 0.45 && s('08') < 0.56, `baixada ${s('08')}`);
  assert.ok(s('04') > 0.04 && s('04') < 0.09, `inapta ${s('04')}`);
  assert.ok(s('03') < 0.01 && s('01') < 0.01);
});

test('partners shared across companies: people by masked CPF and name, holdings by CNPJ', () => {
  const companiesOf = (rowsOf: string[][]) => count(rowsOf.map((p) => `${p[3]}|${p[2]}`));
  const people = companiesOf(socios.filter((p) => p[1] === '2'));
  const holdings = companiesOf(socios.filter((p) => p[1] === '1'));
  const inOne = [...people.values()].filter((c) => c === 1).length;
  assert.ok(inOne > people.size * 0.8, 'most people are in one company');
  assert.ok([...people.values()].filter((c) => c >= 3).length > 20, 'some are in three or more');
  assert.ok(Math.max(...people.values()) >= 50, 'a few in many');
  const [holding, times] = [...holdings].sort((a, b) => b[1] - a[1])[0];
  assert.ok(times >= 10, `a holding in many companies (${times})`);
  // the holding is a company of the dump, under the same name
  const [cnpj, name] = holding.split('|');
  assert.ok(
    estabs.some((e) => e[0] + e[1] + e[2] === cnpj && e[3] === '1'),
    'its head office exists',
  );
  assert.equal(empresas.find((e) => e[0] === cnpj.slice(0, 8))?.[1], name);
  for (const p of socios) assert.ok(p.length === 11);
  const perCompany = count(socios.map((p) => `${p[0]}|${p[3]}|${p[2]}`));
  assert.ok(
    [...perCompany.values()].every((c) => c === 1),
    'nobody twice in one company',
  );
});
