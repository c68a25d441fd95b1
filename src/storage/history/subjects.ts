// The change feed's "subjects" (history.db, docs/history.md): one row per CNPJ the month's feed
// shows, with the attributes its filters read, so that a filtered page seeks an index of history.db
// instead of joining every change to a snapshot at query time.
//
// - `cnpj`: the 14-character CNPJ a change is shown under (an establishment's own; for the
//   company-level changes, recorded under the 8-character base, its head office's).
// - `kinds`: a bit per tipo/campo present under this CNPJ (KINDS, domain/history/kinds.ts): the
//   tipo/campo filters are a bit test on the row, before any change is read.
// - `company`: 1 when the base's company-level changes are shown under this CNPJ.
// - the attributes as raw snapshot codes, of the new month (of the month before for encerramento):
//   uf, municipio (the dump's code), cnae (fiscal), situacao, matriz (1/2), natureza, porte,
//   simples/mei (0/1).
// - since schema version 3 (a month recorded before has them NULL; `history_months.subjects_version`
//   says which): cep (8 digits), email/telefone (0/1: has one), inicio (início de atividade,
//   yyyymmdd), capital (capital social, cents), cnaes (the secondary CNAEs as stored), names (the
//   razão social and nome fantasia, normalised: normalize.ts), for the search's other filters.
// - WITHOUT ROWID on (month, cnpj): the unfiltered feed walks it in CNPJ order; the indexes on
//   (month, uf | municipio | cnae, cnpj) give each value's subjects in CNPJ order (a selective
//   filter seeks, several values are merged in CNPJ order by the reader).
// - `municipio_names`: the dump's municipality names (normalised, normalize.ts) → code, from the
//   newest recorded month, so `municipio=<name>` works without the snapshot's search index.

export interface SubjectRow {
  cnpj: string;
  kinds: number;
  company: number;
  uf: string | null;
  municipio: number | null;
  cnae: number | null;
  situacao: number | null;
  matriz: number | null;
  natureza: number | null;
  porte: number | null;
  simples: number | null;
  mei: number | null;
  cep: string | null;
  email: number | null;
  telefone: number | null;
  inicio: number | null;
  capital: number | null;
  cnaes: string | null;
  names: string | null;
}

export const SUBJECT_COLUMNS = [
  'cnpj',
  'kinds',
  'company',
  'uf',
  'municipio',
  'cnae',
  'situacao',
  'matriz',
  'natureza',
  'porte',
  'simples',
  'mei',
  'cep',
  'email',
  'telefone',
  'inicio',
  'capital',
  'cnaes',
  'names',
] as const satisfies readonly (keyof SubjectRow)[];

/** The subjects' layout a month is recorded with (history_months.subjects_version); 3 added the columns of V3_COLUMNS. */
export const SUBJECTS_VERSION = 3;

/** The columns added by version 3, with their types (a version 2 file gains them: storage/history/db.ts). */
export const V3_COLUMNS = [
  ['cep', 'TEXT'],
  ['email', 'INTEGER'],
  ['telefone', 'INTEGER'],
  ['inicio', 'INTEGER'],
  ['capital', 'INTEGER'],
  ['cnaes', 'TEXT'],
  ['names', 'TEXT'],
] as const;

/** The columns with an index (month, column, cnpj): what a filter may seek on. */
export type IndexedColumn = 'uf' | 'municipio' | 'cnae';

export const SUBJECTS_DDL = [
  `CREATE TABLE IF NOT EXISTS subjects (
     month TEXT NOT NULL,
     cnpj TEXT NOT NULL,
     kinds INTEGER NOT NULL,
     company INTEGER NOT NULL,
     uf TEXT, municipio INTEGER, cnae INTEGER, situacao INTEGER, matriz INTEGER,
     natureza INTEGER, porte INTEGER, simples INTEGER, mei INTEGER,
     ${V3_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')},
     PRIMARY KEY (month, cnpj)
   ) WITHOUT ROWID`,
  `CREATE INDEX IF NOT EXISTS subjects_by_uf ON subjects (month, uf, cnpj)`,
  `CREATE INDEX IF NOT EXISTS subjects_by_municipio ON subjects (month, municipio, cnpj)`,
  `CREATE INDEX IF NOT EXISTS subjects_by_cnae ON subjects (month, cnae, cnpj)`,
  `CREATE TABLE IF NOT EXISTS municipio_names (name TEXT NOT NULL, code INTEGER NOT NULL, PRIMARY KEY (name, code)) WITHOUT ROWID`,
];

const COLS = SUBJECT_COLUMNS.join(', ');
const ON_CONFLICT =
  'ON CONFLICT (month, cnpj) DO UPDATE SET kinds = kinds | excluded.kinds, company = max(company, excluded.company)';

export const SUBJECTS_SQL = {
  deleteMonth: `DELETE FROM subjects WHERE month = ?`,
  /** A CNPJ already there (changes of its own and of its company) gets both kinds, one row. */
  upsert: `INSERT INTO subjects (month, ${COLS}) VALUES (?, ${SUBJECT_COLUMNS.map(() => '?').join(', ')}) ${ON_CONFLICT}`,
  /** The same, from a staging file's subjects (storage/history/merge.ts). */
  upsertFrom: (schema: string) =>
    `INSERT INTO subjects (month, ${COLS}) SELECT month, ${COLS} FROM ${schema}.subjects WHERE month = ? ORDER BY cnpj ${ON_CONFLICT}`,
  /**
   * A month's subjects in a CNPJ range (both ends included), in CNPJ order, those with a bit of a
   * mask only (the unfiltered walk); `columns`: the select list.
   */
  from: (columns: string) =>
    `SELECT ${columns} FROM subjects WHERE month = ? AND cnpj >= ? AND cnpj <= ? AND (kinds & ?) != 0 ORDER BY cnpj`,
  /** The same for one value, through its index. */
  fromValue: (column: IndexedColumn, columns: string) =>
    `SELECT ${columns} FROM subjects INDEXED BY subjects_by_${column} WHERE month = ? AND ${column} = ? AND cnpj >= ? AND cnpj <= ? AND (kinds & ?) != 0 ORDER BY cnpj`,
  /** The CNPJ that many subjects after one (OFFSET): where a range of the feed's walk ends. */
  nth: `SELECT cnpj FROM subjects WHERE month = ? AND cnpj >= ? ORDER BY cnpj LIMIT 1 OFFSET ?`,
  /** The next value of an indexed column after one, below a bound: one seek (a CNAE prefix's codes present, walked). */
  nextValue: (column: IndexedColumn) =>
    `SELECT min(${column}) FROM subjects INDEXED BY subjects_by_${column} WHERE month = ? AND ${column} > ? AND ${column} < ?`,
  clearNames: `DELETE FROM municipio_names`,
  putName: `INSERT OR IGNORE INTO municipio_names (name, code) VALUES (?, ?)`,
  codesOfName: `SELECT code FROM municipio_names WHERE name = ?`,
  /** A month's changes under one key (a CNPJ or a base), by campo. */
  changesOfKey: `SELECT month, cnpj, tipo, campo, antes, depois FROM changes WHERE month = ? AND cnpj = ? ORDER BY campo`,
} as const;
