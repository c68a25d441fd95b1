// Shared by the history tests: a snapshot folder's lookup as the API answers it (the reader's
// statement and the mapping), and which lookup field each kind of change of the synthetic
// month's manifest (src/demo/evolve-changes.ts) changes.
import { MAPPED_COLUMNS, mapCompany } from '../../../src/domain/company/map.ts';
import type { CompanyResponse } from '../../../src/domain/company/schema.ts';
import { SnapshotPair } from '../../../importer/history/pair.ts';
import { compile } from '../../../src/domain/registry/rows.ts';
import { attachSnapshot } from '../../../src/storage/snapshots/attach.ts';
import { openSqlite } from '../../../src/storage/sqlite.ts';

export interface SnapshotLookup {
  get(cnpj: string): CompanyResponse | null;
  /** Every CNPJ of the snapshot. */
  cnpjs: string[];
}

export function snapshotLookup(snapshotDir: string): SnapshotLookup {
  const pair = new SnapshotPair(snapshotDir, snapshotDir);
  const codeTables = pair.codeTables[0];
  pair.close();
  const db = openSqlite(':memory:');
  attachSnapshot(db, snapshotDir);
  const compiled = compile(MAPPED_COLUMNS);
  const stmt = db.prepare<[string], string>(compiled.sql).pluck();
  const cnpjs = db.prepare('SELECT cnpj FROM est.establishments').pluck().all() as string[];
  return {
    cnpjs,
    get: (cnpj) => {
      const text = stmt.get(cnpj);
      return text === undefined ? null : mapCompany(compiled.rows(text), codeTables, []);
    },
  };
}

/** Establishment-level kinds → the campo they change. */
export const ESTABLISHMENT_KINDS: Record<string, string> = {
  baixa: 'situacao_cadastral',
  inapta: 'situacao_cadastral',
  suspensa: 'situacao_cadastral',
  reativacao: 'situacao_cadastral',
  endereco: 'logradouro',
  municipio: 'municipio',
  uf: 'uf',
  cnae: 'cnae_fiscal',
  cnae_secundaria: 'cnaes_secundarios',
  nome_fantasia: 'nome_fantasia',
  telefone: 'telefone_1',
  email: 'email',
};

/** Company-level kinds (recorded under the base) → the campo they change. */
export const COMPANY_KINDS: Record<string, string> = {
  razao_social: 'razao_social',
  natureza_juridica: 'natureza_juridica',
  capital_social: 'capital_social',
  porte: 'porte',
  simples_entrada: 'opc_simples',
  simples_saida: 'opc_simples',
  mei_entrada: 'opc_mei',
  mei_saida: 'opc_mei',
  socio_entrada: 'socios',
  socio_saida: 'socios',
  socio_qualificacao: 'socios',
  regime_tributario: 'regime_tributario',
};
