// The registry snapshot schema: the single source for the importer (CREATE TABLE, INSERT column
// order, indexes, de-duplication) and for the reader (row types, SELECTs).
//
// Why it looks like this (measured, see scripts/bench-import.ts):
// - Two files per snapshot so two importer threads can write at once (SQLite has one writer per
//   file): the wide establishments table alone in one, everything keyed by the 8-char base in the other.
// - Rowid tables with their lookup index built after the load: input order is not key order, and
//   an index built by one sort is much cheaper than 70 M scattered B-tree inserts.
// - Codes are INTEGERs (leading zeros come back on output, padded to the code's width), dates are
//   INTEGER yyyymmdd, money is INTEGER cents, empty text is NULL. Values that do not fit (a garbage
//   code) stay TEXT: SQLite keeps them as given.
// - Phone numbers and area codes (DIGITS) are stored as INTEGER when the number gives the same digits
//   back (no leading zero), else as the digit string: 4–5 bytes less per number. CEPs (always 8
//   digits) are stored as INTEGER and padded back to 8 by the mapping (company/map.ts); a CEP that
//   is not digits stays TEXT. Their columns have no declared type, so SQLite stores exactly what
//   is bound (an INTEGER-affinity column would turn the text '0123' into 123). Readers get a
//   number or a string of digits.
// - Capital social is INTEGER cents while a safe integer (below 2^53 cents: ~90 trillion reais),
//   else the TEXT of its cents' digits (importer/tables/fields.ts `cents`): exact at any size,
//   where an int64 aborted the month and a JS number past 2^53 read back rounded. A DIGITS column
//   too, since INTEGER affinity would turn that text into a lossy REAL. Snapshots written before
//   (INTEGER column) read the same way, so the schema version stays.
// - 4 KiB pages: a lookup on a full month reads ~10 B-tree leaves beyond the 2 GB memory map, one
//   pread each; 4 KiB copies a quarter of the bytes of 16 KiB. On a full month: less CPU per lookup
//   and more lookups/s, for a barely bigger snapshot and an import no slower (docs/benchmarks.md,
//   "One lookup on one core"). Snapshots written with 16 KiB pages still read fine.
//   About 170 bytes per establishment, index included.

/**
 * DIGITS: a column with no declared type (see above); the other two are SQLite's. A JS number is
 * bound there as a BigInt (digitsColumns): better-sqlite3 binds numbers as REAL, which a column
 * with no type keeps as REAL.
 */
export type ColumnType = 'TEXT' | 'INTEGER' | 'DIGITS';
export type SnapshotFile = 'establishments' | 'companies';

export interface TableDef {
  readonly name: string;
  readonly file: SnapshotFile;
  readonly columns: readonly (readonly [string, ColumnType])[];
  /** Lookup index, built after the load. */
  readonly index: readonly string[];
  /** Rows sharing this key are duplicates: the last one read wins. */
  readonly uniqueKey?: string;
  /**
   * No key, but rows equal in every column are one row: the first one read is kept. Cheap with a
   * digest: equal rows then share every column of the lookup index (importer/writer.ts).
   */
  readonly dropIdentical?: boolean;
  /** Ends the table with a `digest` column (see DIGEST_COLUMN) that also ends the lookup index. */
  readonly digest?: boolean;
}

function table<const C extends readonly (readonly [string, ColumnType])[]>(def: {
  name: string;
  file: SnapshotFile;
  columns: C;
  index: readonly string[];
  uniqueKey?: string;
  dropIdentical?: boolean;
  digest?: boolean;
}) {
  return def;
}

export const establishments = table({
  name: 'establishments',
  file: 'establishments',
  columns: [
    ['cnpj', 'TEXT'],
    ['matriz_filial', 'INTEGER'],
    ['nome_fantasia', 'TEXT'],
    ['situacao_cadastral', 'INTEGER'],
    ['data_situacao_cadastral', 'INTEGER'],
    ['motivo_situacao_cadastral', 'INTEGER'],
    ['nome_cidade_exterior', 'TEXT'],
    ['pais', 'INTEGER'],
    ['data_inicio_atividade', 'INTEGER'],
    ['cnae_fiscal', 'INTEGER'],
    ['cnaes_secundarios', 'TEXT'],
    ['tipo_logradouro', 'TEXT'],
    ['logradouro', 'TEXT'],
    ['numero', 'TEXT'],
    ['complemento', 'TEXT'],
    ['bairro', 'TEXT'],
    ['cep', 'DIGITS'],
    ['uf', 'TEXT'],
    ['municipio', 'INTEGER'],
    ['ddd_1', 'DIGITS'],
    ['telefone_1', 'DIGITS'],
    ['ddd_2', 'DIGITS'],
    ['telefone_2', 'DIGITS'],
    ['ddd_fax', 'DIGITS'],
    ['fax', 'DIGITS'],
    ['email', 'TEXT'],
    ['situacao_especial', 'TEXT'],
    ['data_situacao_especial', 'INTEGER'],
  ],
  index: ['cnpj'],
  uniqueKey: 'cnpj',
  digest: true,
} as const);

export const companies = table({
  name: 'companies',
  file: 'companies',
  columns: [
    ['basico', 'TEXT'],
    ['razao_social', 'TEXT'],
    ['natureza_juridica', 'INTEGER'],
    ['qualificacao_responsavel', 'INTEGER'],
    ['capital_social_cents', 'DIGITS'],
    ['porte', 'INTEGER'],
    ['ente_federativo', 'TEXT'],
  ],
  index: ['basico'],
  uniqueKey: 'basico',
  digest: true,
} as const);

export const simples = table({
  name: 'simples',
  file: 'companies',
  columns: [
    ['basico', 'TEXT'],
    ['opcao_simples', 'TEXT'],
    ['data_opcao_simples', 'INTEGER'],
    ['data_exclusao_simples', 'INTEGER'],
    ['opcao_mei', 'TEXT'],
    ['data_opcao_mei', 'INTEGER'],
    ['data_exclusao_mei', 'INTEGER'],
  ],
  index: ['basico'],
  uniqueKey: 'basico',
  digest: true,
} as const);

export const partners = table({
  name: 'partners',
  file: 'companies',
  columns: [
    ['basico', 'TEXT'],
    ['identificador', 'INTEGER'],
    ['nome', 'TEXT'],
    ['cnpj_cpf', 'TEXT'],
    ['qualificacao', 'INTEGER'],
    ['data_entrada', 'INTEGER'],
    ['pais', 'INTEGER'],
    ['representante_cpf', 'TEXT'],
    ['representante_nome', 'TEXT'],
    ['representante_qualificacao', 'INTEGER'],
    ['faixa_etaria', 'INTEGER'],
  ],
  index: ['basico'],
  // No natural key (masked CPFs collide), but the dump repeats some rows whole.
  dropIdentical: true,
  digest: true,
} as const);

export const regimes = table({
  name: 'regimes',
  file: 'companies',
  columns: [
    ['basico', 'TEXT'],
    ['cnpj', 'TEXT'],
    ['ano', 'INTEGER'],
    ['cnpj_scp', 'TEXT'],
    ['forma', 'TEXT'],
    ['escrituracoes', 'INTEGER'],
  ],
  index: ['basico', 'ano'],
  // For the monthly comparison of the lookup's regime fields (importer/history/compare.ts).
  digest: true,
} as const);

/** Code → description tables, two columns each, small enough to cache in memory. */
export const CODE_TABLES = ['cnaes', 'motivos', 'municipios', 'naturezas', 'paises', 'qualificacoes'] as const;
export type CodeTable = (typeof CODE_TABLES)[number];

export const codeTable = (name: CodeTable) =>
  table({
    name,
    file: 'companies',
    columns: [
      ['code', 'INTEGER'],
      ['description', 'TEXT'],
    ],
    index: ['code'],
    uniqueKey: 'code',
  } as const);

export const MAIN_TABLES = [establishments, companies, simples, partners, regimes] as const;
export const ALL_TABLES: readonly TableDef[] = [...MAIN_TABLES, ...CODE_TABLES.map(codeTable)];

export const SNAPSHOT_FILES: Record<SnapshotFile, string> = {
  establishments: 'establishments.db',
  companies: 'companies.db',
};

/** Bumped when the snapshot layout changes; the reader refuses snapshots of another version. */
export const SNAPSHOT_SCHEMA_VERSION = 1;

type SqlValue<T extends ColumnType> = T extends 'TEXT' ? string | null : number | string | null;
/** The row type of a table, derived from its column list. */
export type RowOf<D extends { columns: readonly (readonly [string, ColumnType])[] }> = {
  [C in D['columns'][number] as C[0]]: SqlValue<C[1]>;
};

export type EstablishmentRow = RowOf<typeof establishments>;
export type CompanyRow = RowOf<typeof companies>;
export type SimplesRow = RowOf<typeof simples>;
export type PartnerRow = RowOf<typeof partners>;
export type RegimeRow = RowOf<typeof regimes>;

/**
 * The row digest: a 47-bit hash of every column but the key (the first), written by the importer
 * (importer/row-digest.ts) after the table's own columns and appended to its lookup index. The
 * monthly comparison (importer/history/pair.ts) then tells an unchanged row from the index alone,
 * without reading the row: a table row read at random costs several times an index probe
 * (docs/benchmarks.md).
 * 47 bits fit SQLite's 6-byte integer; two different rows share a digest with odds of 2^-47.
 * Snapshots written before it have no such column and are compared column by column.
 */
export const DIGEST_COLUMN = 'digest';

export function createTableSql(def: TableDef): string {
  const columns = def.columns.map(([n, t]) => (t === 'DIGITS' ? n : `${n} ${t}`));
  if (def.digest) columns.push(`${DIGEST_COLUMN} INTEGER`);
  return `CREATE TABLE ${def.name} (${columns.join(', ')})`;
}

/**
 * How much of each snapshot file a reading connection memory-maps: more than any file, so all of
 * it. SQLite caps it at its compile-time ceiling: 64 GiB in our build of better-sqlite3
 * (scripts/build-sqlite.ts), 2 GB in SQLite's default one. Mapped, a page is read from memory
 * instead of by one pread() into SQLite's cache, and this VM's kernel keeps mapped file pages
 * cached where it drops unmapped ones within a minute (docs/benchmarks.md). Mapped pages belong
 * to the OS cache, not the heap: they count in RSS, and the kernel reclaims them like any
 * cached file page.
 */
export const SNAPSHOT_MMAP_BYTES = 2 ** 40;

/** Page size of the snapshot files, set before their first table is created. */
export const SNAPSHOT_PAGE_SIZE = 4096;

/** The lookup index's name and columns, in order (the digest last when the table has one). */
export const keyIndex = (def: TableDef) => ({
  name: `${def.name}_by_${def.index.join('_')}`,
  columns: def.digest ? [...def.index, DIGEST_COLUMN] : [...def.index],
});

export function createIndexSql(def: TableDef): string {
  const { name, columns } = keyIndex(def);
  return `CREATE INDEX ${name} ON ${def.name} (${columns.join(', ')})`;
}

/** INSERT of `rows` rows at once (the importer appends in groups), parameters in column order. */
export function insertSql(def: TableDef, rows = 1): string {
  const one = `(${Array(insertWidth(def)).fill('?').join(', ')})`;
  return `INSERT INTO ${def.name} VALUES ${Array(rows).fill(one).join(', ')}`;
}

/** Positions of a table's DIGITS columns: where a number must be bound as a BigInt to be stored as an INTEGER. */
export function digitsColumns(def: TableDef): number[] {
  return def.columns.flatMap(([, type], i) => (type === 'DIGITS' ? [i] : []));
}

/** Parameters per inserted row: the columns, and the digest when the table has one. */
export function insertWidth(def: TableDef): number {
  return def.columns.length + (def.digest ? 1 : 0);
}
