// The rows the compatibility shapes (domain/compat/) read: every column of every table, since the
// four upstream answers between them show nearly all of the dump (fax, country, Simples dates, the
// partners' representatives, the regimes' years). The native lookup keeps its own, narrower
// selection (domain/company/map.ts MAPPED_COLUMNS): a compat lookup pays for its extra columns,
// the native one does not. Here rather than in domain/compat so that the registry
// (domain/company/lookup.ts) can fetch them while the shapes reuse domain/company's formatters
// without a folder cycle.
import type {
  CompanyRow,
  EstablishmentRow,
  PartnerRow,
  RegimeRow,
  SimplesRow,
} from '../../storage/snapshots/tables.ts';
import type { RegistryRows } from './rows.ts';

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
