// Empresas (`*.EMPRECSV`, 7 fields) → companies.
import { companies } from '../../src/storage/snapshots/tables.ts';
import { cents, code, keyPart, text } from './fields.ts';
import { defineSource } from './source-table.ts';

/** The Receita's layout of Empresas. */
export const EMPRESAS_LAYOUT = [
  'cnpj_basico',
  'razao_social',
  'natureza_juridica',
  'qualificacao_responsavel',
  'capital_social',
  'porte_empresa',
  'ente_federativo_responsavel',
] as const;

export const companiesSource = defineSource({
  table: companies,
  layout: EMPRESAS_LAYOUT,
  from: {
    basico: 'cnpj_basico',
    razao_social: 'razao_social',
    natureza_juridica: 'natureza_juridica',
    qualificacao_responsavel: 'qualificacao_responsavel',
    capital_social_cents: 'capital_social',
    porte: 'porte_empresa',
    ente_federativo: 'ente_federativo_responsavel',
  },
  toRow(f) {
    const base = keyPart(f[0], 8);
    if (!base) return 'malformed CNPJ base';
    return [base, text(f[1]), code(f[2]), code(f[3]), cents(f[4]), code(f[5]), text(f[6])];
  },
});
