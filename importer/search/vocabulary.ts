// Step 3 of the search build: the `vocabulary` table, every name word starting with a letter in
// either FTS table. A query's last word is matched as a prefix by OR-ing the exact words that
// start with it (domain/search/prefix.ts); FTS5's `fts5vocab` could list them too, but it reads
// the whole doclist of every word it lists (100+ ms for a word in millions of names), once here
// instead of at every query. Letters only: filter terms start with `_` and digits sort before
// letters, so one range takes the words; a last word starting with a digit uses FTS5's `word*`.
// Each word keeps the number of establishments and of partner rows holding it: the plan sums
// them over a prefix.
import type { Sqlite } from '../../src/storage/sqlite.ts';

export function buildVocabulary(write: Sqlite): number {
  for (const t of ['est_fts', 'partner_fts'] as const) {
    write.exec(`CREATE VIRTUAL TABLE temp.vocab_${t} USING fts5vocab(main, ${t}, 'row')`);
    // The first list arrives sorted into an empty table (appends), the second is merged into it;
    // each word with its document count (free: the scan reads its doclist anyway).
    const column = t === 'est_fts' ? 'est_docs' : 'partner_docs';
    write.exec(
      `INSERT INTO vocabulary (term, ${column}) SELECT term, doc FROM temp.vocab_${t} WHERE term >= 'a' AND term < '{' ` +
        `ON CONFLICT (term) DO UPDATE SET ${column} = excluded.${column}`,
    );
    write.exec(`DROP TABLE temp.vocab_${t}`);
  }
  return (write.prepare('SELECT count(*) AS n FROM vocabulary').get() as { n: number }).n;
}
