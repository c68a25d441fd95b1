// The field rules of importer/tables/fields.ts on the shapes the Receita writes (docs/receita-dump.md §3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cep } from '../../../src/importer/tables/fields.ts';

test('cep: 8 digits, a 7-digit value and a CEP as printed are the INTEGER of their digits; zeros null; other text as given', () => {
  assert.equal(cep('01001000'), 1001000n);
  assert.equal(cep('70836900'), 70836900n);
  assert.equal(cep('1001000'), 1001000n, 'lost leading zero: padded back by the reader');
  assert.equal(cep('01001-000'), 1001000n);
  assert.equal(cep('01.001-000'), 1001000n);
  assert.equal(cep(' 70836-900 '), 70836900n);
  assert.equal(cep('00000000'), null);
  assert.equal(cep('0'), null);
  assert.equal(cep('00000-000'), null);
  assert.equal(cep(''), null);
  // Not a CEP as printed: kept as published (a foreign postal code, a shifted column).
  assert.equal(cep('1234-567'), '1234-567');
  assert.equal(cep('DE 19805'), 'DE 19805');
  assert.equal(cep('01001-00'), '01001-00');
  assert.equal(cep('010.01-000'), '010.01-000');
});
