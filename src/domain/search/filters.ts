// The typed filters of a company search and of a partner search. Keys are the API's query
// parameters (issue #14, docs/search.md), values already parsed by the HTTP layer: an endpoint
// maps its query string onto these and calls domain/search/index.ts. Lists are OR, keys are AND.
// The engine still refuses a value it cannot use (InvalidFilter, naming the parameter) rather
// than trusting it: nothing from a request reaches FTS5's query syntax unchecked.

export const SITUACOES = { nula: 1, ativa: 2, suspensa: 3, inapta: 4, baixada: 8 } as const;
export type Situacao = keyof typeof SITUACOES;
export const MATRIZ_FILIAL = { matriz: 1, filial: 2 } as const;

export interface CompanyFilters {
  /** Words of the razão social and nome fantasia (normalize.ts); the last one also as a prefix. */
  q?: string;
  /** Two letters, any case. */
  uf?: readonly string[];
  /** The dump's code (a number) or the name (a string, accent-insensitive, looked up in `uf`, or in every UF without it). */
  municipio?: readonly (number | string)[];
  /** 2–8 digit prefixes. */
  cep?: readonly string[];
  /** 2–7 digit prefixes of the primary CNAE (and of the secondary ones with cnae_secundario). */
  cnae?: readonly string[];
  cnae_secundario?: boolean;
  situacao_cadastral?: readonly Situacao[];
  matriz_filial?: keyof typeof MATRIZ_FILIAL;
  /** 4-digit codes as numbers (2062). */
  natureza_juridica?: readonly number[];
  /** The dump's codes as numbers: 0, 1, 3, 5. */
  porte?: readonly number[];
  opc_simples?: boolean;
  opc_mei?: boolean;
  has_email?: boolean;
  has_telefone?: boolean;
  /** YYYY-MM-DD, inclusive. */
  inicio_atividade_min?: string;
  inicio_atividade_max?: string;
  /** Reais (cents allowed), inclusive. */
  capital_social_min?: number;
  capital_social_max?: number;
}

export interface PartnerFilters {
  /** Words of the partner's name, with the rules of `q`. */
  nome?: string;
  /** A partner company's CNPJ, the dump's masked CPF (`***123456**`) or a full CPF. */
  cnpj_cpf?: string;
}

/** A filter value the engine cannot use; `param` names the query parameter. */
export class InvalidFilter extends Error {
  override name = 'InvalidFilter';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

/** True when at least one filter is given (an empty search is refused: `400 missing_filter`). */
export function hasFilter(f: CompanyFilters): boolean {
  return Object.values(f).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD → yyyymmdd, or null when not a calendar date. */
export function parseIsoDate(s: string): number | null {
  const m = ISO_DATE.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return y * 10000 + mo * 100 + d;
}
