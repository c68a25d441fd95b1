// The last step of the search build, in the import's own process once every part is done: the
// parts' shares of the count tables merged into search.db, their indexes, and `meta` with the
// search version, written last: a search.db without it is never used (domain/registry/reader.ts).
import fs from 'node:fs';
import path from 'node:path';
import { openSqlite } from '../../storage/sqlite.ts';
import { SEARCH_FILE, SEARCH_SCHEMA_VERSION, SEARCH_SHARED_DDL, SEARCH_SHARED_INDEXES } from '../../storage/snapshots/search-schema.ts';
import { countsFile, type SearchPartResult } from './part.ts';

export function finishSearch(dir: string, results: SearchPartResult[]): void {
  const db = openSqlite(path.join(dir, SEARCH_FILE));
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    for (const ddl of SEARCH_SHARED_DDL) db.exec(ddl);
    results.forEach((_, part) => {
      const file = countsFile(dir, part);
      db.prepare('ATTACH DATABASE ? AS counts').run(file);
      db.transaction(() => {
        db.exec('INSERT INTO agg_place SELECT * FROM counts.agg_place');
        db.exec('INSERT INTO agg_cnae SELECT * FROM counts.agg_cnae');
        // `WHERE true`: an upsert after a SELECT needs it (SQLite's parser).
        db.exec('INSERT INTO term_docs SELECT term, n FROM counts.term_docs WHERE true ON CONFLICT (term) DO UPDATE SET n = n + excluded.n');
        db.exec('INSERT OR IGNORE INTO cnae_codes SELECT code FROM counts.cnae_codes');
        db.exec('INSERT OR IGNORE INTO municipios SELECT uf, name, code FROM counts.municipios');
      })();
      db.exec('DETACH DATABASE counts');
      fs.rmSync(file, { force: true });
    });
    for (const sql of SEARCH_SHARED_INDEXES) db.exec(sql);
    db.exec('ANALYZE');
    const sum = (k: 'establishments' | 'partners') => results.reduce((a, r) => a + r.documents[k], 0);
    const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    db.transaction(() => {
      meta.run('establishments', String(sum('establishments')));
      meta.run('partners', String(sum('partners')));
      meta.run('parts', String(results.length));
      meta.run('search_version', String(SEARCH_SCHEMA_VERSION));
    })();
  } finally {
    db.close();
  }
}
