// The search files of a snapshot (docs/search.md): built by the import after the two main files,
// read by domain/search. They carry their own version in search.db's `meta` table, so that a
// change of the search layout does not make older snapshots unreadable: a snapshot without
// search.db, or with another search version, still serves lookups; only search answers 503.
//
// The index is built in PARTS, one process each (two cores: two parts), each part holding the
// FTS documents of its share of the establishments and partners: part 0 in search.db, part i in
// search-<i>.db. search.db also holds `meta` and the small tables every query shares.

export const SEARCH_FILE = 'search.db';

/** Bumped when anything below (or the terms of domain/search/terms.ts) changes meaning. */
export const SEARCH_SCHEMA_VERSION = 1;

/** The file of part `i`. */
export function searchPartFile(i: number): string {
  return i === 0 ? SEARCH_FILE : `search-${i}.db`;
}

/** Schema name under which part `i` is attached to the reader's connection (search.db is `srch`). */
export function searchPartSchema(i: number): string {
  return i === 0 ? 'srch' : `srch${i}`;
}

/** At most this many parts (SQLite attaches at most 10 files; the snapshot takes 2). */
export const MAX_SEARCH_PARTS = 6;

/**
 * One FTS5 document per establishment (est_fts) and per partner row (partner_fts):
 * - contentless, detail=none, columnsize=0: only "which documents hold this term" is kept
 *   (a varint rowid delta per term and document); the rows themselves stay in the main files.
 * - the `ascii` tokenizer, the fastest built in: every document and query is normalised to
 *   [a-z0-9_ ] in JS first (domain/search/normalize.ts), so no Unicode folding is left to it;
 *   `_` is a token character so that filter terms (`_usp`) never collide with name words.
 * - est_fts rowid: domain/search/rowid.ts (CNPJ order); partner_fts rowid = partners.rowid.
 */
const FTS_OPTIONS = "content='', detail=none, columnsize=0, tokenize='ascii tokenchars _'";

/** The tables of every part file. */
export const SEARCH_PART_DDL = [
  `CREATE VIRTUAL TABLE est_fts USING fts5(doc, ${FTS_OPTIONS})`,
  `CREATE VIRTUAL TABLE partner_fts USING fts5(doc, ${FTS_OPTIONS})`,
  // Name words that start with a letter, for the expansion of the last query word into exact
  // terms (domain/search/prefix.ts). FTS5's fts5vocab lists them too, but reads the whole doclist
  // of every word it lists (100+ ms for a word in millions of names): once at the build instead.
  // `est_docs` / `partner_docs`: the part's establishments / partner rows whose names hold the
  // word, to choose how a prefix is looked up. Indexes built before them have no such columns.
  'CREATE TABLE vocabulary (term TEXT PRIMARY KEY, est_docs INTEGER NOT NULL DEFAULT 0, partner_docs INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID',
] as const;

/** The tables of search.db only: counts and code lists shared by all parts. */
export const SEARCH_SHARED_DDL = [
  'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
  // Establishments per combination of values, for exact `count`s without `q` (domain/search/
  // count.ts sums the rows its filters select; NULL where a value is missing). Three narrow tables
  // rather than one of every column: their size is the number of combinations that occur, and one
  // with município × natureza × the four yes/no flags had a row per two establishments.
  'CREATE TABLE agg_uf (uf TEXT, situacao INTEGER, matriz_filial INTEGER, porte INTEGER, natureza INTEGER, ' +
    'simples INTEGER, mei INTEGER, email INTEGER, telefone INTEGER, n INTEGER NOT NULL)',
  'CREATE TABLE agg_municipio (uf TEXT, municipio INTEGER, situacao INTEGER, matriz_filial INTEGER, porte INTEGER, n INTEGER NOT NULL)',
  'CREATE TABLE agg_cnae (cnae INTEGER, uf TEXT, situacao INTEGER, matriz_filial INTEGER, n INTEGER NOT NULL)',
  // Establishments per year, month and capital bucket term: which terms exist, and single-filter counts.
  'CREATE TABLE term_docs (term TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID',
  // Every CNAE code present (primary or secondary), to expand a 3–6 digit prefix into subclass terms.
  'CREATE TABLE cnae_codes (code INTEGER PRIMARY KEY)',
  // The municípios present, with their UF and normalised name: `municipio` given by name.
  'CREATE TABLE municipios (uf TEXT NOT NULL, name TEXT NOT NULL, code INTEGER NOT NULL, PRIMARY KEY (uf, name, code)) WITHOUT ROWID',
] as const;

/** Built once the shared tables are filled: the count tables are read by their leading columns. */
export const SEARCH_SHARED_INDEXES = [
  'CREATE INDEX agg_municipio_by_municipio ON agg_municipio (municipio)',
  'CREATE INDEX agg_cnae_by_cnae ON agg_cnae (cnae)',
] as const;

/** The count tables and their columns (the last, n, is summed when parts are merged). */
export const COUNT_TABLES = {
  agg_uf: ['uf', 'situacao', 'matriz_filial', 'porte', 'natureza', 'simples', 'mei', 'email', 'telefone'],
  agg_municipio: ['uf', 'municipio', 'situacao', 'matriz_filial', 'porte'],
  agg_cnae: ['cnae', 'uf', 'situacao', 'matriz_filial'],
} as const;
