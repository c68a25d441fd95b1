import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cnaeMask, isoDate, moneyText, optionText } from '../../../src/domain/company/codes.ts';
import { exampleResponse, serproRows, SERPRO_CODE_TABLES } from '../../../src/domain/company/example.ts';
import type { CodeTables } from '../../../src/storage/snapshots/code-tables.ts';
import { mapCompany, pickRegime, secondaryCnaes } from '../../../src/domain/company/map.ts';
import type { RegimeRow } from '../../../src/storage/snapshots/tables.ts';
import { SERPRO_EXPECTED } from '../../server/fixtures.ts';

const codeTables = () =>
  Object.fromEntries(Object.entries(SERPRO_CODE_TABLES).map(([k, v]) => [k, new Map(v)])) as unknown as CodeTables;

test('capital_social is exact text from integer cents', () => {
  assert.equal(moneyText(106100482923), '1061004829.23');
  assert.equal(moneyText(0), '0.00');
  assert.equal(moneyText(5), '0.05');
  assert.equal(moneyText(100), '1.00');
  assert.equal(moneyText(99999999999900), '999999999999.00');
  assert.equal(moneyText(-150), '-1.50');
  assert.equal(moneyText('000001800000'), '18000.00');
  assert.equal(moneyText(null), '');
  // Past 2^53 cents the importer stores the TEXT of the digits: exact at any length.
  assert.equal(moneyText('9007199254740993'), '90071992547409.93');
  assert.equal(moneyText('12345678901234567890123456'), '123456789012345678901234.56');
  // A snapshot imported before that kept an int64, read back as the nearest number: still reais.
  assert.equal(moneyText(2 ** 63), '92233720368547758.08');
});

test('dates: yyyymmdd integers to ISO, garbage to null', () => {
  assert.equal(isoDate(19670630), '1967-06-30');
  assert.equal(isoDate(20240229), '2024-02-29');
  for (const bad of [0, 20230229, 2021221, 20211301, 20210100, 99999999, null, 'x'])
    assert.equal(isoDate(bad as number), null, String(bad));
});

test('CNAE mask, secondary list parsing, option flags', () => {
  assert.equal(cnaeMask('6204000'), '6204-0/00');
  assert.deepEqual(secondaryCnaes('6201501,6202300,,x, 6311900'), [6201501, 6202300, 6311900]);
  assert.deepEqual(secondaryCnaes(null), []);
  assert.equal(optionText('S'), 'SIM');
  assert.equal(optionText('N'), 'NÃO');
  assert.equal(optionText(''), '');
  assert.equal(optionText(null), '');
});

test('cnae_fiscal_human is cut to 100 characters ending in ...', () => {
  const l = codeTables();
  (l.cnaes as Map<number, string>).set(6204000, 'x'.repeat(200));
  const r = mapCompany(serproRows(), l, []);
  assert.equal(r.company.cnae_fiscal_human.length, 100);
  assert.ok(r.company.cnae_fiscal_human.startsWith('6204-0/00 - xxx'));
  assert.ok(r.company.cnae_fiscal_human.endsWith('...'));
  // The secondary list is never cut.
  (l.cnaes as Map<number, string>).set(6201501, 'y'.repeat(200));
  assert.ok(mapCompany(serproRows(), l, []).company.cnaes_secundarios_human.includes('y'.repeat(200)));
});

test('regime: latest year; within it this CNPJ, then a non-SCP row; none → omitted', () => {
  const row = (cnpj: string, ano: number, forma: string, scp: string | null = null): RegimeRow => ({
    basico: cnpj.slice(0, 8),
    cnpj,
    ano,
    cnpj_scp: scp,
    forma,
    escrituracoes: 1,
  });
  const me = '33683111000280';
  const other = '33683111000107';
  assert.deepEqual(pickRegime([], me), {});
  assert.equal(
    pickRegime([row(other, 2020, 'LUCRO REAL'), row(me, 2019, 'LUCRO PRESUMIDO')], me).regime_tributario,
    'LUCRO REAL',
  );
  assert.equal(
    pickRegime([row(other, 2020, 'LUCRO REAL'), row(me, 2020, 'LUCRO PRESUMIDO')], me).regime_tributario,
    'LUCRO PRESUMIDO',
  );
  assert.equal(
    pickRegime([row(me, 2020, 'LUCRO ARBITRADO', '12345678000199'), row(me, 2020, 'LUCRO REAL', '0')], me)
      .regime_tributario,
    'LUCRO REAL',
  );
  assert.equal(
    pickRegime([row('33.683.111/0002-80', 2020, 'IMUNE DO IRPJ'), row(other, 2020, 'LUCRO REAL')], me)
      .regime_tributario,
    'IMUNE DO IRPJ',
  );
  const r = mapCompany({ ...serproRows(), regimes: [] }, codeTables(), []);
  assert.equal('regime_tributario' in r.company, false);
  assert.equal('ano_regime_tributario' in r.company, false);
});

test('the documented example is the real mapping of the SERPRO rows', () => {
  assert.deepEqual(exampleResponse(), SERPRO_EXPECTED);
});
