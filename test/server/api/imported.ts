// A real imported month for the API tests of listings and batches: the committed Receita sample
// (test/fixtures/receita-mini: SERPRO's Brasília branch and its company) plus a few hand-written
// rows in the Receita's own format, imported by `runImport` like any month, so that some roots
// have several establishments:
//   33683111 (SERPRO): head office 0001, branch 0002 (the sample's) and branches 0003–0007;
//   12ABC345 (alphanumeric): its head office is order 0002, after branch 0001 in CNPJ order, and a branch 01DE;
//   11222333: two branches, no head office;
//   33683110 and 33683112: one establishment each, beside SERPRO's root (range bounds).
import path from 'node:path';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { runImport } from '../../../importer/run.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';
import { estabelecimento, rec, writeZip } from '../../importer/helpers.ts';
import { tempDataDir } from '../helpers.ts';

/** An Estabelecimentos record in Brasília: base, order, head office (1) or branch (2), trade name. */
function est(base: string, order: string, matrizFilial: '1' | '2', fantasia: string): string {
  const dv = makeCnpj(base, order).slice(12);
  return estabelecimento(base, order, dv, {
    3: matrizFilial,
    4: fantasia,
    18: '70836900',
    19: 'DF',
    20: '9701',
    21: '61',
    22: '33334444',
    27: '',
  });
}

export const SERPRO_ROOT = '33683111';
export const SERPRO_CNPJS = ['0001', '0002', '0003', '0004', '0005', '0006', '0007'].map((o) =>
  makeCnpj(SERPRO_ROOT, o),
);
export const ALNUM_ROOT = '12ABC345';
/** Head office first (order 0002), then the others in CNPJ order. */
export const ALNUM_CNPJS = ['0002', '0001', '01DE'].map((o) => makeCnpj(ALNUM_ROOT, o));
export const NO_HEAD_CNPJS = ['0002', '0003'].map((o) => makeCnpj('11222333', o));
export const NEIGHBOURS = [makeCnpj('33683110', '0001'), makeCnpj('33683112', '0001')];

/** Imports the sample month and the extra rows into a fresh data dir (removed at exit). */
export async function importedDataDir(): Promise<string> {
  const dataDir = tempDataDir();
  const extra = tempDataDir();
  const serproBranches = SERPRO_CNPJS.filter((c) => c !== '33683111000280');
  writeZip(
    path.join(extra, 'Estabelecimentos1.zip'),
    'K3241.K03200Y1.D60913.ESTABELE',
    // Out of CNPJ order on purpose: the order of the listing is the reader's, not the file's.
    [...serproBranches]
      .reverse()
      .map((c) => est(SERPRO_ROOT, c.slice(8, 12), c.slice(8, 12) === '0001' ? '1' : '2', `SERPRO ${c.slice(8, 12)}`))
      .join('') +
      est(ALNUM_ROOT, '01DE', '2', 'ALFA 01DE') +
      est(ALNUM_ROOT, '0001', '2', 'ALFA 0001') +
      est(ALNUM_ROOT, '0002', '1', 'ALFA MATRIZ') +
      est('11222333', '0003', '2', 'SEM MATRIZ 0003') +
      est('11222333', '0002', '2', 'SEM MATRIZ 0002') +
      est('33683110', '0001', '1', 'VIZINHO ANTES') +
      est('33683112', '0001', '1', 'VIZINHO DEPOIS'),
  );
  writeZip(
    path.join(extra, 'Empresas2.zip'),
    'K3241.K03200Y2.D60913.EMPRECSV',
    rec(ALNUM_ROOT, 'EMPRESA ALFANUMERICA LTDA', '2062', '49', '1000,00', '01', '') +
      rec('11222333', 'SEM MATRIZ LTDA', '2062', '49', '0,00', '03', ''),
  );
  await runImport({ dataDir, inputs: [RECEITA_MINI, extra], month: '2026-09' });
  return dataDir;
}
