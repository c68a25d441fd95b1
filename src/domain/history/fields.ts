// What the change history compares: per level, the snapshot columns read (the mapping's own
// MAPPED_COLUMNS, so the mapping can show any changed value) and, per response field (`campo`),
// the raw column it comes from. A campo is recorded when its raw value differs AND the lookup would
// show it differently (a code the lookup pads, a NULL shown as "", ... are no change).
import { MAPPED_COLUMNS } from '../company/map.ts';

/** Establishment fields: lookup response name → column (both lists from the issue, #15). */
export const ESTABLISHMENT_FIELDS = {
  situacao_cadastral: 'situacao_cadastral',
  data_situacao_cadastral: 'data_situacao_cadastral',
  motivo_situacao_cadastral: 'motivo_situacao_cadastral',
  tipo_logradouro: 'tipo_logradouro',
  logradouro: 'logradouro',
  numero: 'numero',
  complemento: 'complemento',
  bairro: 'bairro',
  cep: 'cep',
  municipio: 'municipio',
  uf: 'uf',
  cnae_fiscal: 'cnae_fiscal',
  cnaes_secundarios: 'cnaes_secundarios',
  nome_fantasia: 'nome_fantasia',
  ddd_1: 'ddd_1',
  telefone_1: 'telefone_1',
  ddd_2: 'ddd_2',
  telefone_2: 'telefone_2',
  email: 'email',
} as const satisfies Record<string, (typeof MAPPED_COLUMNS.establishment)[number]>;

/** Company fields (one row per base), from the companies table. */
export const COMPANY_FIELDS = {
  razao_social: 'razao_social',
  natureza_juridica: 'natureza_juridica',
  capital_social: 'capital_social_cents',
  porte: 'porte',
} as const satisfies Record<string, (typeof MAPPED_COLUMNS.company)[number]>;

/** Simples/MEI option, from the simples table (no row: no option). */
export const SIMPLES_FIELDS = {
  opc_simples: 'opcao_simples',
  opc_mei: 'opcao_mei',
} as const satisfies Record<string, (typeof MAPPED_COLUMNS.simples)[number]>;

/**
 * The regime fields, from the regimes table (several rows per base: one per year, SCP, ...): told
 * from the lookup's own choice of row (pickRegime) for the company's head office, not from a column.
 */
export const REGIME_FIELDS = ['regime_tributario', 'ano_regime_tributario', 'escrituracoes_regime_tributario'] as const;

/** The partner set's campo; a partner is told by name and document, its qualificação compared. */
export const SOCIOS = 'socios';

/** Positions of each field's column in a level's column list (the order rows are read in). */
export function positions<F extends Record<string, string>>(
  fields: F,
  columns: readonly string[],
): [keyof F & string, number][] {
  return Object.entries(fields).map(([campo, col]) => {
    const i = columns.indexOf(col);
    if (i < 0) throw new Error(`column ${col} is not read`);
    return [campo, i];
  });
}
