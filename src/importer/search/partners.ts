// Step 2 of the search build: one FTS document per partner row, rowid = the row's rowid in
// companies.db (read in rowid order, so FTS5 receives ascending rowids for free). The document is
// the partner's normalised name plus one key term for `cnpj_cpf` (the dump's masked CPF or the
// partner company's CNPJ): finding a partner by either is then the same indexed lookup as a name,
// ordered and paged the same way, and combines with a name in one MATCH.
import type { Sqlite } from '../../storage/sqlite.ts';
import { partnerDocument } from '../../domain/search/partner-key.ts';
import { FtsInserter } from './establishments.ts';

const BATCH = 250_000;

/** Indexes the partner rows whose rowid is in `range(max rowid)`; returns how many were read. */
export async function indexPartners(read: Sqlite, write: Sqlite, range: (maxRowid: number) => [number, number], onProgress: (done: number) => void): Promise<number> {
  const select = read.prepare<[number, number], { id: number; nome: string | null; cnpj_cpf: string | null }>(
    'SELECT rowid AS id, nome, cnpj_cpf FROM reg.partners WHERE rowid > ? AND rowid <= ? ORDER BY rowid',
  );
  const maxRowid = (read.prepare('SELECT max(rowid) AS m FROM reg.partners').get() as { m: number | null }).m ?? 0;
  const insert = new FtsInserter(write, 'partner_fts');
  const [first, last] = range(maxRowid);
  let done = 0;
  for (let from = first; from < last; from += BATCH) {
    write.exec('BEGIN');
    for (const p of select.iterate(from, Math.min(from + BATCH, last))) {
      const doc = partnerDocument(p.nome, p.cnpj_cpf);
      if (doc !== '') insert.add(p.id, doc);
      done++;
    }
    insert.flush();
    write.exec('COMMIT');
    onProgress(done);
    // Let the progress message out: the build is otherwise synchronous.
    await new Promise(setImmediate);
  }
  return done;
}
