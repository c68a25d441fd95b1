import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDigits, formatCnpj, isValidCnpj, makeCnpj, normalizeCnpj } from '../../src/domain/cnpj.ts';

test('check digits match the published vectors, numeric and alphanumeric', () => {
  assert.equal(checkDigits('191312430001'), '97');
  assert.equal(checkDigits('000000000001'), '91');
  assert.equal(checkDigits('336831110002'), '80');
  assert.equal(checkDigits('12ABC34501DE'), '35');
  assert.equal(makeCnpj('12ABC345', '01DE'), '12ABC34501DE35');
});

test('normalizeCnpj accepts bare, punctuated and lowercase input; rejects everything else', () => {
  assert.equal(normalizeCnpj('33683111000280'), '33683111000280');
  assert.equal(normalizeCnpj('33.683.111/0002-80'), '33683111000280');
  assert.equal(normalizeCnpj('12.abc.345/01de-35'), '12ABC34501DE35');
  for (const bad of [
    '',
    '3368311100028',
    '336831110002800',
    '33683111000281',
    '12ABC34501DE3A',
    '12ABC34501DÉ35',
    'x'.repeat(100),
    '<script>',
    '33683111/000280'.replace('/', '|'),
  ]) {
    assert.equal(normalizeCnpj(bad), null, bad);
  }
  assert.equal(isValidCnpj('00000000000191'), true);
});

test('the all-zero CNPJ passes the mod-11 check but is invalid; the all-zero root (Banco do Brasil) is not', () => {
  assert.equal(checkDigits('000000000000'), '00');
  assert.equal(isValidCnpj('00000000000000'), false);
  assert.equal(normalizeCnpj('00000000000000'), null);
  assert.equal(normalizeCnpj('00.000.000/0000-00'), null);
  assert.equal(normalizeCnpj('00.000.000/0001-91'), '00000000000191');
  assert.equal(isValidCnpj(makeCnpj('00000000', '0002')), true);
  // The other repeated digits already fail their check digits.
  for (const c of '123456789') assert.equal(isValidCnpj(c.repeat(14)), false, c);
});

test('formatCnpj', () => {
  assert.equal(formatCnpj('33683111000280'), '33.683.111/0002-80');
  assert.equal(formatCnpj('12ABC34501DE35'), '12.ABC.345/01DE-35');
});
