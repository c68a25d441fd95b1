// Identical partner rows (docs/receita-dump.md §7): partners have no natural key, so only rows equal
// in every loaded column are one partner; the import keeps one of them, and the lookup's `socios`
// lists it once. Rows that differ in any one field, even one the response does not show, all stay.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { runImport } from '../../importer/run.ts';
import { bearer, get, makeAccount, serve } from '../server/helpers.ts';
import { copySamples, querySnapshot, rec, tempDir, writeZip } from './helpers.ts';

const SERPRO = '33683111';
const FILIAL = '33683111000280';
/** A Socios record of SERPRO, the sample's fields as given, some replaced. */
const socio = (nome: string, o: Partial<Record<number, string>> = {}) => {
  const f = [SERPRO, '2', nome, '***123456**', '10', '20210301', '', '***000000**', '', '00', '5'];
  for (const [i, v] of Object.entries(o)) f[+i] = v!;
  return rec(...f);
};

test('identical partner rows are served once, in one shard or across two; rows differing in one field all stay', async () => {
  const dump = copySamples(tempDir('dump-'));
  writeZip(
    path.join(dump, 'Socios1.zip'),
    'K3241.K03200Y1.D60913.SOCIOCSV',
    socio('ADJACENTE REPETIDO') +
      socio('ADJACENTE REPETIDO') +
      socio('EM DOIS ARQUIVOS') +
      // Equal once typed: the same name with extra spaces, the same code unpadded.
      socio('IGUAL  DEPOIS DE LIDO ', { 4: '10' }) +
      socio('NOME COMUM', { 5: '20200101' }) +
      socio('IGUAL DEPOIS DE LIDO', { 4: '010' }) +
      socio('NOME COMUM', { 5: '20200102' }) +
      // Differs only in a field the response does not show (país).
      socio('ESTRANGEIRO', { 6: '105' }) +
      socio('ESTRANGEIRO', { 6: '106' }),
  );
  writeZip(
    path.join(dump, 'Socios2.zip'),
    'K3241.K03200Y2.D60913.SOCIOCSV',
    socio('EM DOIS ARQUIVOS') + socio('ADJACENTE REPETIDO'),
  );

  const dataDir = tempDir();
  const s = await runImport({ dataDir, inputs: [dump], month: '2026-09', search: false, history: false });
  const t = s.stats.tables.partners;
  // 7 sample rows + 11 here; one ADJACENTE REPETIDO kept of three, one EM DOIS ARQUIVOS of two, one IGUAL DEPOIS DE LIDO of two.
  assert.equal(t.duplicates, 4);
  assert.equal(t.rows, 7 + 11 - 4);
  const stored = querySnapshot<{ n: number }>(s.dir, 'companies.db', 'SELECT count(*) AS n FROM partners');
  assert.equal(stored[0].n, t.rows, 'the snapshot holds what the summary counts');

  const acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
  const server = await serve(dataDir);
  try {
    const r = await get(`${server.url}/api/v1/brazilian_companies/${FILIAL}/company`, bearer(acct.token));
    assert.equal(r.status, 200);
    const names = (r.body.socios as { nome_socio: string }[]).map((p) => p.nome_socio);
    const count = (n: string) => names.filter((x) => x === n).length;
    assert.equal(count('ADJACENTE REPETIDO'), 1);
    assert.equal(count('EM DOIS ARQUIVOS'), 1);
    assert.equal(count('IGUAL DEPOIS DE LIDO'), 1);
    assert.equal(count('NOME COMUM'), 2, 'a masked CPF and name shared, another entry date: two partners');
    assert.equal(count('ESTRANGEIRO'), 2, 'another país: two partners, though the response does not show it');
    assert.equal(r.body.socios.length, 6 + 7, "the sample's six partners of SERPRO and the seven distinct ones here");
  } finally {
    await server.close();
  }
});
