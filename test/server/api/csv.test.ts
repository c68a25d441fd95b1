// The CSV of a search page: quoting of `;`, quotes and line breaks, formula-looking cells kept as
// text, BOM, CRLF, header row; read back by csv-parse.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CSV_COLUMNS, companiesCsv, csvCell } from '../../../src/server/api/csv.ts';
import { parseCsv } from './csv-parse.ts';

test('cells: quoted only when needed, quotes doubled, formulas kept as text', () => {
  assert.equal(csvCell('ACME LTDA'), 'ACME LTDA');
  assert.equal(csvCell('A;B'), '"A;B"');
  assert.equal(csvCell('diz "oi"'), '"diz ""oi"""');
  assert.equal(csvCell('linha 1\nlinha 2'), '"linha 1\nlinha 2"');
  assert.equal(csvCell('a\r\nb'), '"a\r\nb"');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell(true), 'true');
  assert.equal(csvCell([6201501, 6202300]), '6201501,6202300');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell('-1.50'), '-1.50');
});

test('a page: BOM, header of every company field, one CRLF line per company, read back intact', () => {
  const company = Object.fromEntries(CSV_COLUMNS.map((k) => [k, `v ${k}`])) as Record<string, unknown>;
  company.razao_social = 'PADARIA "PÃO; QUENTE"\nLTDA';
  company.cnaes_secundarios = [4721102, 5611201];
  company.has_email = false;
  delete company.numero_funcionarios;
  const csv = companiesCsv([company as never, company as never]);
  const rows = parseCsv(csv);
  assert.deepEqual(rows[0], CSV_COLUMNS);
  assert.equal(rows.length, 3);
  const back = Object.fromEntries(CSV_COLUMNS.map((k, i) => [k, rows[1]![i]]));
  assert.equal(back.razao_social, 'PADARIA "PÃO; QUENTE"\nLTDA');
  assert.equal(back.cnaes_secundarios, '4721102,5611201');
  assert.equal(back.has_email, 'false');
  assert.equal(back.numero_funcionarios, '');
  assert.equal(back.cnpj, 'v cnpj');
  assert.equal(companiesCsv([]), `\uFEFF${CSV_COLUMNS.join(';')}\r\n`, 'an empty page is the header');
});
