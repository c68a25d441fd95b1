// Simples (`*SIMPLES.CSV*`, 7 fields) → simples.
import { simples } from '../../src/storage/snapshots/tables.ts';
import { date, flag, keyPart } from './fields.ts';
import { defineSource } from './source-table.ts';

/** The Receita's layout of Simples. */
export const SIMPLES_LAYOUT = [
  'cnpj_basico',
  'opcao_simples',
  'data_opcao_simples',
  'data_exclusao_simples',
  'opcao_mei',
  'data_opcao_mei',
  'data_exclusao_mei',
] as const;

export const simplesSource = defineSource({
  table: simples,
  layout: SIMPLES_LAYOUT,
  from: {
    basico: 'cnpj_basico',
    opcao_simples: 'opcao_simples',
    data_opcao_simples: 'data_opcao_simples',
    data_exclusao_simples: 'data_exclusao_simples',
    opcao_mei: 'opcao_mei',
    data_opcao_mei: 'data_opcao_mei',
    data_exclusao_mei: 'data_exclusao_mei',
  },
  toRow(f) {
    const base = keyPart(f[0], 8);
    if (!base) return 'malformed CNPJ base';
    return [base, flag(f[1]), date(f[2]), date(f[3]), flag(f[4]), date(f[5]), date(f[6])];
  },
});
