// The records of one synthetic company as drawn, before they become CSV rows.

import type { Kind } from './kinds.ts';
import type { Municipio } from './code-tables.ts';

export interface Company {
  index: number;
  base: string;
  natureza: string;
  kind: Kind;
  razao: string;
  qualResp: string;
  capital: string;
  porte: string;
  ente: string;
  startDay: number;
  uf: string;
  municipio: Municipio;
  cnae: string;
  situacao: string;
  sitDay: number;
  /** Year the company closed (baixada), or null. */
  closedYear: number | null;
  simples: string[] | null;
  simplesActive: boolean;
  branches: number;
}

export interface Establishment {
  order: string;
  cnpj: string;
  fields: string[];
}
