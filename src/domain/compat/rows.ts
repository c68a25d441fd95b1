// The snapshot rows the compatibility shapes read: every column of every table, since the four
// upstream answers between them show nearly all of the dump (fax, country, Simples dates, the
// partners' representatives, the regimes' years). The native lookup keeps its own, narrower
// selection (domain/company/map.ts MAPPED_COLUMNS): a compat lookup pays for its extra columns,
// the native one does not.
import type { CodeTables } from '../../storage/snapshots/code-tables.ts';
import type {
  CompanyRow,
  EstablishmentRow,
  PartnerRow,
  RegimeRow,
  SimplesRow,
} from '../../storage/snapshots/tables.ts';
import type { RegistryInfo } from '../registry/reader.ts';
import type { RegistryRows } from '../registry/rows.ts';

export const COMPAT_COLUMNS = {
  establishment: [
    'cnpj',
    'matriz_filial',
    'nome_fantasia',
    'situacao_cadastral',
    'data_situacao_cadastral',
    'motivo_situacao_cadastral',
    'nome_cidade_exterior',
    'pais',
    'data_inicio_atividade',
    'cnae_fiscal',
    'cnaes_secundarios',
    'tipo_logradouro',
    'logradouro',
    'numero',
    'complemento',
    'bairro',
    'cep',
    'uf',
    'municipio',
    'ddd_1',
    'telefone_1',
    'ddd_2',
    'telefone_2',
    'ddd_fax',
    'fax',
    'email',
    'situacao_especial',
    'data_situacao_especial',
  ],
  company: [
    'razao_social',
    'natureza_juridica',
    'qualificacao_responsavel',
    'capital_social_cents',
    'porte',
    'ente_federativo',
  ],
  simples: [
    'opcao_simples',
    'data_opcao_simples',
    'data_exclusao_simples',
    'opcao_mei',
    'data_opcao_mei',
    'data_exclusao_mei',
  ],
  partner: [
    'identificador',
    'nome',
    'cnpj_cpf',
    'qualificacao',
    'data_entrada',
    'pais',
    'representante_cpf',
    'representante_nome',
    'representante_qualificacao',
    'faixa_etaria',
  ],
  regime: ['cnpj', 'ano', 'cnpj_scp', 'forma', 'escrituracoes'],
} as const satisfies {
  establishment: readonly (keyof EstablishmentRow)[];
  company: readonly (keyof CompanyRow)[];
  simples: readonly (keyof SimplesRow)[];
  partner: readonly (keyof PartnerRow)[];
  regime: readonly (keyof RegimeRow)[];
};

/**
 * One establishment as the compat shapes read it. Partners come in the order they were imported
 * (the dump's order, rowid), regimes in no particular order: each shape sorts what it shows.
 */
export type CompatRows = RegistryRows<typeof COMPAT_COLUMNS>;

/** What a shape needs besides the rows: the month's code tables and where the data comes from. */
export interface CompatContext {
  readonly codeTables: CodeTables;
  /** The snapshot being served (month, import time). */
  readonly info: RegistryInfo;
  /** IBGE municipality code of a SIAFI code (domain/compat/ibge.ts); null when unknown. */
  ibge(siafi: number): number | null;
}
