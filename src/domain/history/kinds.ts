// The bit of each tipo/campo in a feed subject's `kinds` (storage/history/subjects.ts). The order
// is part of history.db's layout: append new campos at the end, never reorder (a reorder would
// change the meaning of months already recorded; bump HISTORY_SCHEMA_VERSION instead).
import { COMPANY_FIELDS, ESTABLISHMENT_FIELDS, REGIME_FIELDS, SIMPLES_FIELDS, SOCIOS } from './fields.ts';

export const TIPOS = ['abertura', 'encerramento', 'alteracao'] as const;

/** abertura, encerramento, then every compared campo. */
export const KINDS = [
  'abertura',
  'encerramento',
  'situacao_cadastral',
  'data_situacao_cadastral',
  'motivo_situacao_cadastral',
  'tipo_logradouro',
  'logradouro',
  'numero',
  'complemento',
  'bairro',
  'cep',
  'municipio',
  'uf',
  'cnae_fiscal',
  'cnaes_secundarios',
  'nome_fantasia',
  'ddd_1',
  'telefone_1',
  'ddd_2',
  'telefone_2',
  'email',
  'razao_social',
  'natureza_juridica',
  'capital_social',
  'porte',
  'opc_simples',
  'opc_mei',
  'socios',
  'regime_tributario',
  'ano_regime_tributario',
  'escrituracoes_regime_tributario',
] as const;

/** The campos a change may name (the feed's `campo` filter). */
export const CAMPOS = KINDS.slice(2) as readonly string[];

/**
 * A campo recorded but not (yet) in KINDS: its subjects carry this bit, which every tipo/campo
 * filter lets through. The sign bit of the 32-bit masks (JavaScript's bitwise operators): KINDS
 * holds at most 31, below it (it was bit 30, which the 31st kind came to share).
 */
const OTHER = 1 << 31;
if (KINDS.length > 31) throw new Error("KINDS has outgrown the 31 bits of a subject's kinds below OTHER");

const BIT = new Map<string, number>(KINDS.map((k, i) => [k, 1 << i]));

// A campo compared (fields.ts) and missing here would only cost speed (OTHER), but say it early.
for (const campo of [
  ...Object.keys(ESTABLISHMENT_FIELDS),
  ...Object.keys(COMPANY_FIELDS),
  ...Object.keys(SIMPLES_FIELDS),
  SOCIOS,
  ...REGIME_FIELDS,
]) {
  if (!BIT.has(campo)) throw new Error(`campo ${campo} has no bit in KINDS (domain/history/kinds.ts)`);
}

/** The bit of a change: its campo, or its tipo for abertura/encerramento (campo ''). */
export const kindBit = (tipo: string, campo: string): number => BIT.get(campo || tipo) ?? OTHER;

/** The subjects' bits that may hold a change of these tipos and campos (absent: any). */
export function kindsMask(tipos: readonly string[] | undefined, campos: readonly string[] | undefined): number {
  let mask = OTHER;
  const wantAlteracao = tipos === undefined || tipos.includes('alteracao');
  for (const k of KINDS) {
    const isTipo = k === 'abertura' || k === 'encerramento';
    if (
      isTipo
        ? (tipos === undefined || tipos.includes(k)) && campos === undefined
        : wantAlteracao && (campos === undefined || campos.includes(k))
    )
      mask |= BIT.get(k)!;
  }
  return mask;
}
