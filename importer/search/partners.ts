// Step 2 of a search part: one FTS document per partner row of its rowid range, rowid = the row's
// rowid in companies.db (read in rowid order, so FTS5 receives ascending rowids for free). The
// document is the partner's name plus one key term for `cnpj_cpf` (the dump's masked CPF or the
// partner company's CNPJ, document-sql.ts): finding a partner by either is then the same indexed
// lookup as a name, ordered and paged the same way, and combines with a name in one MATCH.
import type { Sqlite } from '../../src/storage/sqlite.ts';
import { insertByRowidChunks } from './chunks.ts';
import { INSERT_PARTNERS } from './document-sql.ts';

const CHUNK = 250_000;

/** Indexes the partner rows whose rowid is in `range(max rowid)`; returns how many. */
export function indexPartners(
  db: Sqlite,
  range: (maxRowid: number) => [number, number],
  onProgress: (done: number) => void,
  afterChunk?: () => void,
): Promise<number> {
  return insertByRowidChunks(db, INSERT_PARTNERS, 'reg.partners', CHUNK, range, onProgress, afterChunk);
}
