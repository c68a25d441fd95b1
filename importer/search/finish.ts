// The last step of the search build, in the import's own process once every part is done: the
// parts' shares of the count tables merged into search.db, their indexes, and `meta` with the
// search version, written last: a search.db without it is never used (domain/registry/reader.ts).
import fs from 'node:fs';
import path from 'node:path';
import { journalOff, openSqlite } from '../../src/storage/sqlite.ts';
import {
  COUNT_TABLES,
  SEARCH_FILE,
  SEARCH_SCHEMA_VERSION,
  SEARCH_SHARED_DDL,
  SEARCH_SHARED_INDEXES,
} from '../../src/storage/snapshots/search-schema.ts';
import { countsFile, type SearchPartResult } from './part.ts';
import { NAME_PREFIX_LENGTH } from '../../src/domain/search/terms.ts';

export function finishSearch(dir: string, results: SearchPartResult[]): void {
  const db = openSqlite(path.join(dir, SEARCH_FILE));
  try {
    journalOff(db);
    db.pragma('synchronous = OFF');
    for (const ddl of SEARCH_SHARED_DDL) db.exec(ddl);
    const parts = results.map((_, i) => `counts${i}`);
    results.forEach((_, i) => db.prepare(`ATTACH DATABASE ? AS ${parts[i]}`).run(countsFile(dir, i)));
    const all = (table: string, columns: string) =>
      parts.map((p) => `SELECT ${columns} FROM ${p}.${table}`).join(' UNION ALL ');
    db.transaction(() => {
      // A combination counted in several parts becomes one row: the sums of count.ts read fewer.
      for (const [table, cols] of Object.entries(COUNT_TABLES)) {
        const columns = cols.join(', ');
        db.exec(
          `INSERT INTO ${table} SELECT ${columns}, sum(n) FROM (${all(table, `${columns}, n`)}) GROUP BY ${columns}`,
        );
      }
      db.exec(`INSERT INTO term_docs SELECT term, sum(n) FROM (${all('term_docs', 'term, n')}) GROUP BY term`);
      db.exec(`INSERT INTO cnae_codes SELECT DISTINCT code FROM (${all('cnae_codes', 'code')})`);
      db.exec(`INSERT OR IGNORE INTO municipios SELECT uf, name, code FROM (${all('municipios', 'uf, name, code')})`);
    })();
    for (const p of parts) db.exec(`DETACH DATABASE ${p}`);
    results.forEach((_, i) => fs.rmSync(countsFile(dir, i), { force: true }));
    for (const sql of SEARCH_SHARED_INDEXES) db.exec(sql);
    db.exec('ANALYZE');
    const sum = (k: 'establishments' | 'partners') => results.reduce((a, r) => a + r.documents[k], 0);
    const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    db.transaction(() => {
      meta.run('establishments', String(sum('establishments')));
      meta.run('partners', String(sum('partners')));
      meta.run('parts', String(results.length));
      // The establishments' documents hold name prefix terms of this length (domain/search/terms.ts).
      meta.run('name_prefix_terms', String(NAME_PREFIX_LENGTH));
      // Every part holds name_keys (importer/search/name-keys.ts): the relevance order's exact tiers.
      meta.run('name_keys', '1');
      // And partner_keys: the partner search's exact tier (domain/search/partners.ts).
      meta.run('partner_keys', '1');
      meta.run('search_version', String(SEARCH_SCHEMA_VERSION));
    })();
  } finally {
    db.close();
  }
}
