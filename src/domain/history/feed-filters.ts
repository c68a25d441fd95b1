// What the change feed (GET /api/v1/changes) filters on, and what a month recorded by an older
// version cannot answer.
import type { CompanyFilters } from '../search/filters.ts';
import type { Tipo } from '../../storage/history/schema.ts';
import { SUBJECTS_VERSION } from '../../storage/history/subjects.ts';

/**
 * The feed's filters, values parsed (feed-schema.ts); lists are OR, keys AND: tipo and campo, and
 * the company search's attribute filters that a change's CNPJ has (`cnae`: of the CNAE fiscal only).
 */
export type FeedFilters = Pick<CompanyFilters, (typeof V2_FILTERS)[number] | (typeof V3_FILTERS)[number]> & {
  tipo?: readonly Tipo[];
  campo?: readonly string[];
};

/** The attribute filters every recorded month answers. */
export const V2_FILTERS = [
  'uf',
  'municipio',
  'cnae',
  'situacao_cadastral',
  'matriz_filial',
  'natureza_juridica',
  'porte',
  'opc_simples',
  'opc_mei',
] as const;
/** Those that read subject columns of layout 3 (storage/history/subjects.ts): a month recorded before lacks them. */
export const V3_FILTERS = [
  'q',
  'cep',
  'cnae_secundario',
  'has_email',
  'has_telefone',
  'inicio_atividade_min',
  'inicio_atividade_max',
  'capital_social_min',
  'capital_social_max',
] as const;

/** A filter the month's recorded subjects cannot answer (recorded by an older version). */
export class FilterUnavailable extends Error {
  override name = 'FilterUnavailable';
  constructor(
    readonly param: string,
    readonly month: string,
  ) {
    super(`${param} needs a month recorded with subjects layout ${SUBJECTS_VERSION}; ${month} was recorded before`);
  }
}
