// The FTS documents, written by SQLite itself: INSERT … SELECT builds each document's text in C
// from the snapshot columns, so no row crosses into JS. Measured on 1 M companies: handing 19
// columns per row to JS cost more in better-sqlite3 (values made one by one through V8's API)
// than the SQL reading and the joins together; a multi-row INSERT into FTS5 cost more than a
// single-row one. The filter terms are one printf (a concatenation per term cost more per row).
// Figures: docs/benchmarks.md.
//
// Names. The FTS `ascii` tokenizer lowercases A–Z and splits on every other ASCII character
// except `_` (a token character, for the filter terms): for a name of ASCII without `_` that is
// exactly normalizeText (domain/search/normalize.ts; tested in test/domain/search/words.test.ts),
// so such names go in as they are. Any other name (accents, `_`) is normalised by normalizeText
// itself, called from SQL (search_norm). The real dump's names are uppercase ASCII.
//
// Filter terms: the markers of domain/search/terms.ts followed by the value when it is a usable
// code (an integer); otherwise the bare marker, a junk term no query asks for (cheaper than
// leaving it out, and it keeps text garbage out of the document).
import { MARK } from '../../src/domain/search/terms.ts';

const needsNorm = (x: string) => `(instr(${x}, '_') > 0 OR length(CAST(${x} AS BLOB)) <> length(${x}))`;
const words = (x: string) => `CASE WHEN ${needsNorm(x)} THEN search_norm(${x}) ELSE ${x} END`;
/**
 * The column as a code, else NULL. Codes are stored as integers ≥ 0 (importer/tables/fields.ts);
 * what is not one stays TEXT, which SQLite orders after every number, so a BETWEEN excludes it
 * without calling typeof() (function calls are most of the cost of these expressions).
 */
export const code = (x: string, max = 999_999_999_999_999) => `CASE WHEN ${x} BETWEEN 0 AND ${max} THEN ${x} END`;

/** The primary CNAE if a 7-digit code, else NULL. */
const CNAE = code('e.cnae_fiscal', 9_999_999);
/** The CEP if an 8-digit code (stored as an integer, leading zeros dropped), else NULL. */
const CEP = code('e.cep', 99_999_999);
/** Simples, MEI, e-mail, telephone as the bits of terms.ts FLAG. */
export const FLAGS_SQL =
  `((s.opcao_simples IS 'S') + 2 * (s.opcao_mei IS 'S') + 4 * (coalesce(trim(e.email), '') <> '') ` +
  `+ 8 * (e.telefone_1 IS NOT NULL OR e.telefone_2 IS NOT NULL))`;
/**
 * capitalBucket (terms.ts) of the capital in cents, 'z' for zero, NULL when absent. From the
 * digits' count and the first digit, so an amount stored as the TEXT of its digits (past 2^53
 * cents, importer/tables/fields.ts) gets its bucket too: the GLOBs run only when it is no integer.
 */
export const CAPITAL_BUCKET_SQL =
  `CASE WHEN NOT (c.capital_social_cents BETWEEN 0 AND 9223372036854775807 ` +
  `OR (c.capital_social_cents GLOB '[1-9]*' AND c.capital_social_cents NOT GLOB '*[^0-9]*')) THEN NULL WHEN c.capital_social_cents = 0 THEN 'z' ` +
  `ELSE min(56, (length(c.capital_social_cents) - 1) * 3 + CASE WHEN substr(c.capital_social_cents, 1, 1) < '2' THEN 0 ` +
  `WHEN substr(c.capital_social_cents, 1, 1) < '5' THEN 1 ELSE 2 END) END`;
/** yyyymmdd of the início de atividade, or NULL. */
export const INICIO_SQL = `CASE WHEN e.data_inicio_atividade BETWEEN 10000101 AND 99991231 THEN e.data_inicio_atividade END`;

const TERMS: [string, string][] = [
  [MARK.uf, `CASE WHEN e.uf GLOB '[A-Z][A-Z]' THEN e.uf END`],
  [MARK.municipio, code('e.municipio')],
  [MARK.cnae, `CASE WHEN ${CNAE} IS NOT NULL THEN printf('%02d', e.cnae_fiscal / 100000) END`],
  [MARK.cnae, `CASE WHEN ${CNAE} IS NOT NULL THEN printf('%07d', e.cnae_fiscal) END`],
  [MARK.cep, `CASE WHEN ${CEP} IS NOT NULL THEN printf('%02d', e.cep / 1000000) END`],
  [MARK.cep, `CASE WHEN ${CEP} IS NOT NULL THEN printf('%05d', e.cep / 1000) END`],
  [MARK.situacao, code('e.situacao_cadastral')],
  [MARK.matrizFilial, code('e.matriz_filial')],
  [MARK.natureza, code('c.natureza_juridica')],
  [MARK.porte, code('c.porte')],
  [MARK.flags, FLAGS_SQL],
  [MARK.inicio, `${INICIO_SQL} / 10000`],
  [MARK.inicio, `${INICIO_SQL} / 100`],
  [MARK.capital, CAPITAL_BUCKET_SQL],
];

/** The secondary CNAEs: a list cleaned by the importer (7-digit codes, commas) in SQL; anything else through JS. */
const SECONDARY =
  `CASE WHEN e.cnaes_secundarios IS NULL THEN '' WHEN e.cnaes_secundarios NOT GLOB '*[^0-9,]*' ` +
  `THEN ' ${MARK.cnaeSecondary}' || replace(e.cnaes_secundarios, ',', ' ${MARK.cnaeSecondary}') ELSE search_secondary(e.cnaes_secundarios) END`;

/**
 * INSERT of the establishments with rowid in (?, ?]: rowid (domain/search/rowid.ts: a numeric
 * CNPJ, one without letters, in SQL; an alphanumeric one through JS), document, sorted by rowid
 * within the chunk (FTS5 wants ascending rowids). search_row() feeds the count tables and returns
 * the name prefix terms (establishments.ts).
 * printf('%s', NULL) is '', so an absent value leaves its bare marker.
 */
export const INSERT_ESTABLISHMENTS = `
  INSERT INTO est_fts (rowid, doc)
  SELECT rid, doc FROM (
    SELECT CASE WHEN lower(e.cnpj) = e.cnpj THEN CAST(substr(e.cnpj, 1, 12) AS INTEGER) ELSE search_alnum_rowid(e.cnpj) END AS rid,
           ${words(`coalesce(c.razao_social, '') || ' ' || coalesce(e.nome_fantasia, '')`)}
           || printf('${TERMS.map(([m]) => ` ${m}%s`).join('')}', ${TERMS.map(([, v]) => v).join(', ')})
           || ${SECONDARY}
           || search_row(e.cnpj, c.razao_social, e.nome_fantasia, e.uf, e.municipio, e.situacao_cadastral, e.matriz_filial, c.porte, c.natureza_juridica, ${FLAGS_SQL},
                           ${CNAE}, ${INICIO_SQL} / 100, ${CAPITAL_BUCKET_SQL}) AS doc
    FROM est.establishments e
    LEFT JOIN reg.companies c ON c.basico = substr(e.cnpj, 1, 8)
    LEFT JOIN reg.simples s ON s.basico = substr(e.cnpj, 1, 8)
    WHERE e.rowid > ? AND e.rowid <= ?
  ) ORDER BY rid`;

/** The partner key term of cnpj_cpf (domain/search/partner-key.ts): masked CPF or CNPJ. */
const PARTNER_KEY =
  `CASE WHEN p.cnpj_cpf GLOB '[*][*][*][0-9][0-9][0-9][0-9][0-9][0-9][*][*]' THEN ' ${MARK.partnerCpf}' || substr(p.cnpj_cpf, 4, 6) ` +
  `WHEN p.cnpj_cpf GLOB '${'[0-9A-Z]'.repeat(12)}[0-9][0-9]' THEN ' ${MARK.partnerCnpj}' || lower(p.cnpj_cpf) ELSE '' END`;

/** INSERT of the partner rows with rowid in (?, ?], already in rowid order. */
export const INSERT_PARTNERS = `
  INSERT INTO partner_fts (rowid, doc)
  SELECT p.rowid, ${words(`coalesce(p.nome, '')`)} || ${PARTNER_KEY} || search_partner(p.rowid, p.nome)
  FROM reg.partners p
  WHERE p.rowid > ? AND p.rowid <= ?
  ORDER BY p.rowid`;
