// The batch's domain part (src/domain/company/batch.ts): the body's shape, what a batch counts
// (distinct valid CNPJs), and its answers in input order with each distinct CNPJ looked up once.
// The lookups against a real imported month: test/server/api/batch.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { answerBatch, planBatch, readBatchRequest } from '../../../src/domain/company/batch.ts';
import { exampleResponse } from '../../../src/domain/company/example.ts';

const A = makeCnpj('33683111', '0002');
const B = makeCnpj('12ABC345', '01DE');

test('the body: {"cnpjs": [1–1,000 strings]} and nothing else', () => {
  assert.deepEqual(readBatchRequest({ cnpjs: ['x'] }), { ok: true, cnpjs: ['x'] });
  assert.equal(readBatchRequest({ cnpjs: Array(1000).fill('x') }).ok, true);
  for (const bad of [
    null,
    5,
    'x',
    [],
    { cnpjs: null },
    { cnpjs: {} },
    { cnpjs: [] },
    { cnpjs: Array(1001).fill('x') },
    { cnpjs: ['x', null] },
    { cnpjs: ['x'], extra: 1 },
    { CNPJS: ['x'] },
  ]) {
    const r = readBatchRequest(bad);
    assert.equal(r.ok, false, JSON.stringify(bad)?.slice(0, 40));
  }
});

test('counts distinct valid CNPJs; answers every input in order, each distinct CNPJ looked up once, in CNPJ order', () => {
  const inputs = [A, 'lixo', B.toLowerCase(), '33.683.111/0002-80', makeCnpj('99999999', '0001'), ''];
  const plan = planBatch(inputs);
  assert.deepEqual(plan.distinct, [A, B, makeCnpj('99999999', '0001')]);
  const asked: string[] = [];
  const results = answerBatch(plan, (c) => (asked.push(c), c === A ? exampleResponse() : null));
  assert.deepEqual(asked, [B, A, makeCnpj('99999999', '0001')].sort());
  assert.deepEqual(
    results.map((r) => [r.cnpj, r.status]),
    [
      [A, 200],
      ['lixo', 400],
      [B, 404],
      [A, 200],
      [makeCnpj('99999999', '0001'), 404],
      ['', 400],
    ],
  );
  assert.equal(planBatch(['x', 'y']).distinct.length, 0);
});
