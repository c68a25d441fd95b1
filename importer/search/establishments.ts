// Step 1 of a search part: one FTS document per establishment of its rowid range, written by
// SQLite (document-sql.ts), with the count tables fed from the same rows (aggregates.ts) and the
// name prefix terms made in JS (name-prefixes.ts).
//
// Order. FTS5 wants rowids ascending within what it holds in memory: a smaller rowid flushes its
// pending terms as a new segment, so establishments fed in random order would make one segment
// per row. Walking the `cnpj` index gives CNPJ order but reads the table pages at random (the
// table is in dump order): at full size one 16 KB page read per row. So the table is read in its
// own order, in chunks of CHUNK rows, each sorted by rowid (CNPJ order) by SQLite in memory: a few
// segments per chunk, merged once at the end ('optimize', part.ts).
import type { Sqlite } from '../../src/storage/sqlite.ts';
import { normalizeText } from '../../src/domain/search/normalize.ts';
import { rowidOfCnpj } from '../../src/domain/search/rowid.ts';
import { term } from '../../src/domain/search/terms.ts';
import type { Aggregates } from './aggregates.ts';
import { insertByRowidChunks } from './chunks.ts';
import { INSERT_ESTABLISHMENTS } from './document-sql.ts';
import { namePrefixTerms } from './name-prefixes.ts';
import type { NameKeys } from './name-keys.ts';

/**
 * Rows per sorted chunk. Each chunk ends in a flush of FTS5's pending terms (the next one starts
 * at a smaller rowid), so its size bounds the segments 'optimize' merges: 100,000 made thousands
 * per part of a full month with a 2 MB hash (part.ts; docs/benchmarks.md). The sorter holds
 * (rowid, document) of each, far past the 16 MB cache: it sorts in runs written to a temporary
 * file (sequential I/O).
 */
export const CHUNK = 500_000;

/** The JS functions the document SQL calls (on the connection that runs it). */
export function registerDocumentFunctions(
  db: Sqlite,
  agg: Aggregates | null,
  keys: NameKeys | null = null,
  partnerKeys: NameKeys | null = null,
): void {
  db.function('search_norm', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? normalizeText(s) : ''));
  db.function('search_alnum_rowid', { deterministic: true, safeIntegers: true }, (cnpj: unknown) =>
    BigInt(rowidOfCnpj(String(cnpj))),
  );
  // A secondary CNAE list holding something else than 7-digit codes: keep the codes of 1–7 digits.
  db.function('search_secondary', { deterministic: true }, (list: unknown) => {
    const codes = new Set<string>();
    for (const part of String(list).split(','))
      if (/^\d{1,7}$/.test(part.trim())) codes.add(part.trim().padStart(7, '0'));
    return [...codes].map((c) => ` ${term.cnae(c, true)}`).join('');
  });
  // One call per establishment does the row-level jobs in JS (a call from SQLite has a fixed
  // cost before any work: docs/benchmarks.md): count the row's values, hold its name keys
  // (name-keys.ts), and return its name prefix terms.
  db.function(
    'search_row',
    { deterministic: false },
    (cnpj, razao, fantasia, uf, mun, sit, mf, porte, nat, flags, cnae, month, bucket) => {
      agg?.add(uf, mun, sit, mf, porte, nat, flags, cnae, month, bucket);
      keys?.add(cnpj, razao, fantasia);
      return namePrefixTerms(razao, fantasia);
    },
  );
  // One call per partner row: hold its name's key (name-keys.ts); it adds nothing to the document.
  db.function('search_partner', { deterministic: false, safeIntegers: false }, (rowid, nome) => {
    partnerKeys?.addName(rowid, nome);
    return '';
  });
}

/** Indexes the establishments whose rowid is in `range(max rowid)`; returns how many. */
export function indexEstablishments(
  db: Sqlite,
  range: (maxRowid: number) => [number, number],
  onProgress: (done: number) => void,
  afterChunk?: () => void,
): Promise<number> {
  return insertByRowidChunks(db, INSERT_ESTABLISHMENTS, 'est.establishments', CHUNK, range, onProgress, afterChunk);
}
