// The field rules of importer/tables/fields.ts on the shapes the Receita writes (docs/receita-dump.md §3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cents, cep } from '../../../importer/tables/fields.ts';

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

test('cents: exact integer cents, a number while a safe integer, else the TEXT of the digits; never a float nor a BigInt', () => {
  assert.equal(cents('1061004829,23'), 106100482923);
  assert.equal(cents('000000018000,00'), 1800000, 'leading zeros dropped');
  assert.equal(cents('0,00'), 0);
  assert.equal(cents('1.234,56'), 123456, 'thousands separator');
  assert.equal(cents('10,5'), 1050);
  assert.equal(cents('150'), 15000, 'whole units');
  assert.equal(cents(' 999999999999,00 '), 99999999999900);
  // The last safe integer is a number; one past it is text (a number would read back rounded).
  assert.equal(cents('90071992547409,91'), Number.MAX_SAFE_INTEGER);
  assert.equal(cents('90071992547409,93'), '9007199254740993');
  assert.equal(cents('000090071992547409,93'), '9007199254740993', 'leading zeros dropped from the text too');
  assert.equal(cents('99999999999999999,99'), '9999999999999999999');
  assert.equal(
    cents('92233720368547758,08'),
    '9223372036854775808',
    'past int64: better-sqlite3 could not bind it as a BigInt',
  );
  assert.equal(cents('123456789012345678901234,56'), '12345678901234567890123456');
  assert.equal(cents('123.456.789.012.345.678.901.234,5'), '12345678901234567890123450');
  for (const bad of ['', '-1,00', '12,345', 'abc', '1,2,3', ',50']) assert.equal(cents(bad), null, bad);
});
