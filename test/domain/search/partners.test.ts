// Partner search on demo-400, against the oracle: by name words, by cnpj_cpf (masked CPF, full
// CPF by its six middle digits, a partner company's CNPJ), both, paging, and the company summary.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { PartnerFilters } from '../../../src/domain/search/filters.ts';
import { partnerKeyTerm } from '../../../src/domain/search/partner-key.ts';
import { coreWords, sameName } from '../../../src/domain/search/name-key.ts';
import type { PartnerHit } from '../../../src/domain/search/partners.ts';
import { DEMO_400 } from '../../fixtures/index.ts';
import { importMonth, type Imported } from './helpers.ts';

let m: Imported;
before(async () => {
  m = await importMonth([DEMO_400], { searchParts: 3 });
});
after(() => m?.close());

/** Every partner rowid of a search in the table's order, page by page. */
function walk(f: PartnerFilters, limit: number, ms?: number): number[] {
  const ids: number[] = [];
  let afterId: string | null = null;
  for (let i = 0; i < 100_000; i++) {
    const page = m.search.partners(f, { limit, after: afterId, ms, order: 'table' });
    for (const r of page.rows) {
      const id = m.oracle.db
        .prepare(
          'SELECT rowid FROM reg.partners WHERE nome IS ? AND cnpj_cpf IS ? AND rowid > ? ORDER BY rowid LIMIT 1',
        )
        .pluck()
        .get(r.nome_socio || null, r.cnpj_cpf_socio || null, ids[ids.length - 1] ?? -1) as number;
      ids.push(id);
    }
    if (page.next === null) return ids;
    afterId = page.next;
  }
  throw new Error('runaway paging');
}

function check(f: PartnerFilters, key: (stored: string | null) => boolean = () => true, min = 1, ms?: number): void {
  const expected = m.oracle.partners(f, key);
  assert.ok(expected.length >= min, `${JSON.stringify(f)} should match`);
  assert.deepEqual(walk(f, 3, ms), expected, JSON.stringify(f));
}

/** The words of the first partner name of the table. */
const firstName = () =>
  (
    m.oracle.db
      .prepare(`SELECT nome FROM reg.partners WHERE nome IS NOT NULL ORDER BY rowid LIMIT 1`)
      .pluck()
      .get() as string
  ).split(' ');

test('by name words, the last one also a prefix', () => {
  const first = firstName();
  check({ nome: first[0] });
  check({ nome: first[0].slice(0, 3).toLowerCase() });
  check({ nome: `${first[0]} ${first[first.length - 1]}` });
  check({ nome: 'silva' }, () => true, 0);
  check({ nome: 'zzzzqqq' }, () => true, 0);
});

test('out of time: a page ends at its budget, shorter, and the pages still join into the whole list', () => {
  const first = firstName();
  // A budget of 0 ms: every page examines one candidate (a shorter page, its cursor after it).
  const page = m.search.partners({ nome: first[0] }, { limit: 20, ms: 0 });
  assert.ok(page.rows.length <= 1 && page.next !== null);
  check({ nome: first[0] }, () => true, 1, 0);
  check({ nome: first[0].slice(0, 2).toLowerCase() }, () => true, 1, 0);
  check({ nome: `${first[0]} ${first[first.length - 1]}` }, () => true, 1, 0);
});

/** Every row of a partner search in the relevance order, page by page. */
function walkRanked(f: PartnerFilters, limit: number, ms?: number): PartnerHit[] {
  const rows: PartnerHit[] = [];
  let after: string | null = null;
  for (let i = 0; i < 100_000; i++) {
    const page = m.search.partners(f, { limit, after, ms });
    rows.push(...page.rows);
    if (page.next === null) return rows;
    after = page.next;
  }
  throw new Error('runaway paging');
}

test('by name, the relevance order: the exact names first, then the other rows the words find; pages join', () => {
  const row = (r: PartnerHit) => `${r.nome_socio}|${r.cnpj_cpf_socio}|${r.company.cnpj}`;
  // Names of two or three words that longer names also hold (JOSE SILVA in JOSE CARLOS SILVA).
  const names = m.oracle.db
    .prepare(
      `SELECT nome FROM reg.partners WHERE nome LIKE '% %' AND nome NOT LIKE '% % % %' GROUP BY nome ORDER BY count(*) DESC, nome LIMIT 30`,
    )
    .pluck()
    .all() as string[];
  let mixed = 0;
  for (const nome of names) {
    const exact = (n: string) => sameName(coreWords(n), coreWords(nome)) !== null;
    const table = walk({ nome }, 50);
    const ranked = walkRanked({ nome }, 3);
    assert.equal(ranked.length, table.length, nome);
    assert.deepEqual(ranked.map(row).sort(), walkRanked({ nome }, 2, 0).map(row).sort(), `${nome}: out of time`);
    assert.deepEqual(ranked.map(row), walkRanked({ nome }, 2, 0).map(row), `${nome}: the same order out of time`);
    const firstOther = ranked.findIndex((r) => !exact(r.nome_socio));
    assert.ok(firstOther !== 0, `${nome}: an exact name first`);
    if (firstOther > 0) {
      mixed++;
      assert.ok(
        ranked.slice(firstOther).every((r) => !exact(r.nome_socio)),
        `${nome}: every exact name first`,
      );
    }
  }
  assert.ok(mixed > 0, 'some name is found both exactly and inside longer names');
  // With cnpj_cpf too: the exact tier is narrowed by it.
  const masked = m.oracle.db
    .prepare(`SELECT nome, cnpj_cpf FROM reg.partners WHERE nome LIKE '% %' AND cnpj_cpf LIKE '***%' LIMIT 1`)
    .get() as { nome: string; cnpj_cpf: string };
  const both = walkRanked({ nome: masked.nome, cnpj_cpf: masked.cnpj_cpf }, 2);
  assert.ok(both.length >= 1 && both.every((r) => r.cnpj_cpf_socio === masked.cnpj_cpf));
  assert.equal(both.length, walk({ nome: masked.nome, cnpj_cpf: masked.cnpj_cpf }, 5).length);
  // A cursor of one order is refused by the other's words; a plain rowid goes on in the table's order.
  assert.throws(() => m.search.partners({ nome: names[0] }, { limit: 2, after: '7:1' }), { name: 'InvalidFilter' });
});

test('by cnpj_cpf: masked CPF, full CPF (six middle digits), partner company CNPJ; with a name', () => {
  const masked = m.oracle.db
    .prepare(`SELECT cnpj_cpf FROM reg.partners WHERE cnpj_cpf LIKE '***%' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`)
    .pluck()
    .get() as string;
  check({ cnpj_cpf: masked }, (s) => s === masked);
  const six = masked.slice(3, 9);
  const fullCpf = `123${six}45`;
  check({ cnpj_cpf: fullCpf }, (s) => s === masked);
  check(
    { cnpj_cpf: `${fullCpf.slice(0, 3)}.${fullCpf.slice(3, 6)}.${fullCpf.slice(6, 9)}-${fullCpf.slice(9)}` },
    (s) => s === masked,
  );
  const company = m.oracle.db
    .prepare(`SELECT cnpj_cpf FROM reg.partners WHERE length(cnpj_cpf) = 14 ORDER BY rowid LIMIT 1`)
    .pluck()
    .get() as string;
  check({ cnpj_cpf: company }, (s) => s === company);
  const name = m.oracle.db
    .prepare('SELECT nome FROM reg.partners WHERE cnpj_cpf = ? LIMIT 1')
    .pluck()
    .get(masked) as string;
  check({ nome: name, cnpj_cpf: masked }, (s) => s === masked);
  check({ nome: 'zzzzqqq', cnpj_cpf: masked }, (s) => s === masked, 0);
  assert.equal(partnerKeyTerm('12345'), null);
  assert.equal(partnerKeyTerm('11.222.333/0001-00'), null, 'bad check digits');
  assert.throws(() => m.search.partners({ cnpj_cpf: 'abc' }, { limit: 5 }), {
    name: 'InvalidFilter',
    param: 'cnpj_cpf',
  });
  assert.throws(() => m.search.partners({}, { limit: 5 }), { name: 'InvalidFilter' });
});

test("each row: the partner's fields and its company's head office", () => {
  const row = m.oracle.db
    .prepare(
      `SELECT p.nome, p.basico, e.cnpj, e.uf, c.razao_social FROM reg.partners p JOIN reg.companies c ON c.basico = p.basico ` +
        `JOIN est.establishments e ON e.cnpj >= p.basico AND e.cnpj < p.basico || '~' AND e.matriz_filial = 1 ` +
        `WHERE p.nome IS NOT NULL AND EXISTS (SELECT 1 FROM est.establishments f WHERE f.cnpj >= p.basico AND f.cnpj < p.basico || '~' AND f.matriz_filial = 2) LIMIT 1`,
    )
    .get() as { nome: string; basico: string; cnpj: string; uf: string; razao_social: string } | undefined;
  assert.ok(row, 'the fixture has a partner of a company with branches');
  const hits = m.search
    .partners({ nome: row.nome }, { limit: 100 })
    .rows.filter((h) => h.company.cnpj?.startsWith(row.basico));
  assert.equal(hits.length >= 1, true);
  const h = hits[0];
  assert.equal(h.company.cnpj, row.cnpj);
  assert.equal(h.company.razao_social, row.razao_social);
  assert.equal(h.company.uf, row.uf);
  assert.match(h.company.situacao_cadastral, /^(ATIVA|BAIXADA|INAPTA|SUSPENSA|NULA)$/);
  assert.ok(h.company.municipio.length > 0);
  assert.deepEqual(Object.keys(h).sort(), [
    'cnpj_cpf_socio',
    'company',
    'data_entrada',
    'faixa_etaria',
    'nome_socio',
    'qualificacao_socio',
  ]);
});
