// GET /api/v1/partners against the committed demo-400 month, imported for real: by name and by
// cnpj_cpf, rows as documented, paged to the end (no duplicate, no gap, same rows as the oracle
// and one call per page), missing_filter, bad values and foreign cursors refused without counting.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { PartnerHitSchema } from '../../../src/domain/search/query-schema.ts';
import { coreWords, sameName } from '../../../src/domain/search/name-key.ts';
import type { Oracle } from '../../domain/search/oracle.ts';
import { startDemo400, stopDemo400, walkPages, type Demo400 } from './search-walk.ts';
import { bearer, get, type TestAccount, type TestServer } from '../helpers.ts';

FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v));

type Row = { nome_socio: string; cnpj_cpf_socio: string; company: { cnpj: string | null } };

describe('partner search', () => {
  let server: TestServer;
  let acct: TestAccount;
  let oracle: Oracle;
  const partners = (qs: string) => get(`${server.url}/api/v1/partners${qs}`, bearer(acct.token));
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));

  async function walk(qs: string, limit: number): Promise<{ rows: Row[]; pages: number; calls: number }> {
    const { items, pages, calls } = await walkPages<Row>(partners, qs, limit, (row) =>
      assert.ok(Value.Check(PartnerHitSchema, row), JSON.stringify(row)),
    );
    return { rows: items, pages, calls };
  }

  let demo: Demo400 | undefined;
  before(async () => {
    demo = await startDemo400();
    ({ oracle, acct, server } = demo);
  });
  after(() => stopDemo400(demo));

  test("by a common name word: the oracle's rows, paged with no gap or duplicate, one call per page", async () => {
    const names = oracle.db.prepare('SELECT nome FROM reg.partners WHERE nome IS NOT NULL').pluck().all() as string[];
    const freq = new Map<string, number>();
    for (const n of names)
      for (const w of new Set(n.split(' ').filter((x) => x.length > 3))) freq.set(w, (freq.get(w) ?? 0) + 1);
    const word = [...freq].sort((a, b) => b[1] - a[1])[0]![0];
    const expected = oracle.partners({ nome: word.toLowerCase() }, () => true);
    assert.ok(expected.length > 4, `${word}: ${expected.length}`);
    const { rows, pages, calls } = await walk(`?nome=${encodeURIComponent(word.toLowerCase())}`, 3);
    assert.equal(rows.length, expected.length);
    assert.equal(calls, pages);
    for (const r of rows) assert.ok(` ${r.nome_socio} `.includes(` ${word}`), r.nome_socio);
    const all = (await partners(`?nome=${encodeURIComponent(word)}&limit=100`)).body.data;
    assert.deepEqual(rows, all.slice(0, rows.length), 'pages concatenated are the one big page');
    assert.deepEqual(Object.keys(all[0].company), ['cnpj', 'razao_social', 'situacao_cadastral', 'uf', 'municipio']);
  });

  test('by a whole name: the partners of exactly that name first (relevance), or the table order (order=table)', async () => {
    // A name of two or three words that longer names also hold (JOSE SILVA in JOSE CARLOS SILVA).
    const names = oracle.db
      .prepare(
        `SELECT nome FROM reg.partners WHERE nome LIKE '% %' AND nome NOT LIKE '% % % %' GROUP BY nome ORDER BY count(*) DESC, nome LIMIT 30`,
      )
      .pluck()
      .all() as string[];
    let nome = '';
    let ranked: { rows: Row[] } = { rows: [] };
    let exact: boolean[] = [];
    for (const n of names) {
      ranked = await walk(`?nome=${encodeURIComponent(n)}`, 2);
      exact = ranked.rows.map((r) => sameName(coreWords(r.nome_socio), coreWords(n)) !== null);
      if (exact.includes(false)) {
        nome = n;
        break;
      }
    }
    assert.ok(nome, 'a name found inside longer names');
    const qs = `?nome=${encodeURIComponent(nome)}`;
    assert.ok(exact[0], `${nome}: ${ranked.rows.map((r) => r.nome_socio).join(', ')}`);
    assert.deepEqual(
      exact,
      [...exact].sort((a, b) => Number(b) - Number(a)),
      'every exact name before the others',
    );
    const table = await walk(`${qs}&order=table`, 2);
    const expected = oracle.partners({ nome }, () => true);
    assert.equal(table.rows.length, expected.length);
    assert.deepEqual(table.rows.map((r) => r.nome_socio).sort(), ranked.rows.map((r) => r.nome_socio).sort());
    // Each order's cursor belongs to it.
    const next = (await partners(`${qs}&limit=1`)).body.next_cursor as string;
    const foreign = await partners(`${qs}&order=table&limit=1&cursor=${encodeURIComponent(next)}`);
    assert.deepEqual([foreign.status, foreign.body.error], [400, 'invalid_parameter']);
  });

  test('by cnpj_cpf: a masked CPF as published, and both filters', async () => {
    const row = oracle.db
      .prepare("SELECT nome, cnpj_cpf FROM reg.partners WHERE cnpj_cpf LIKE '***%' AND nome IS NOT NULL LIMIT 1")
      .get() as { nome: string; cnpj_cpf: string };
    const r = await partners(`?cnpj_cpf=${encodeURIComponent(row.cnpj_cpf)}`);
    assert.equal(r.status, 200);
    assert.ok(r.body.data.some((p: Row) => p.cnpj_cpf_socio === row.cnpj_cpf && p.nome_socio === row.nome));
    for (const p of r.body.data as Row[]) assert.equal(p.cnpj_cpf_socio.slice(3, 9), row.cnpj_cpf.slice(3, 9));
    const both = await partners(`?cnpj_cpf=${encodeURIComponent(row.cnpj_cpf)}&nome=${encodeURIComponent(row.nome)}`);
    assert.ok(both.body.data.length >= 1 && both.body.data.every((p: Row) => p.nome_socio === row.nome));
  });

  test('missing_filter, bad values, unknown parameters, foreign cursors: 400, not counted', async () => {
    const base = remaining(await partners(''));
    const r0 = await partners('?limit=5');
    assert.deepEqual([r0.status, r0.body.error], [400, 'missing_filter']);
    assert.match(r0.body.message, /nome ou cnpj_cpf/);
    assert.equal(remaining(r0), base);
    const next: string =
      (await partners('?nome=a&limit=1')).body.next_cursor ?? (await partners('?nome=ma&limit=1')).body.next_cursor;
    for (const [qs, name] of [
      ['?cnpj_cpf=123', 'cnpj_cpf'],
      ['?nome=maria&q=x', 'q'],
      ['?nome=%21%21', 'nome'],
      ['?nome=silva&limit=0', 'limit'],
      [`?nome=zz&cursor=${next}`, 'cursor'],
    ]) {
      const r = await partners(qs);
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_parameter'], `${qs}: ${JSON.stringify(r.body)}`);
      assert.ok(r.body.message.includes(`parâmetro ${name} `), r.body.message);
      assert.equal(remaining(r), base - 1, qs);
    }
  });
});
