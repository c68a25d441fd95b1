// One part of the search index (docs/search.md), built by one process (process.ts) from a
// snapshot's two finished files: the FTS documents of its share of the establishments (by rowid
// range of the establishments table) and of the partners, the vocabulary of their names, and its
// share of the count tables (a scratch file that finish.ts merges into search.db).
// Streaming: memory depends on the chunk size and the code tables, not on the dump.
import fs from 'node:fs';
import path from 'node:path';
import { openSqlite, type Sqlite } from '../../src/storage/sqlite.ts';
import { bulkPragmas } from '../../src/storage/snapshots/bulk-pragmas.ts';
import { attachSnapshot } from '../../src/storage/snapshots/attach.ts';
import { SEARCH_PART_DDL, SEARCH_SHARED_DDL, searchPartFile } from '../../src/storage/snapshots/search-schema.ts';
import { SNAPSHOT_MMAP_BYTES } from '../../src/storage/snapshots/tables.ts';
import { Aggregates } from './aggregates.ts';
import { indexEstablishments, registerDocumentFunctions } from './establishments.ts';
import { indexPartners } from './partners.ts';
import { buildVocabulary } from './vocabulary.ts';
import { NameKeys } from './name-keys.ts';
import { term } from '../../src/domain/search/terms.ts';

export interface SearchPartJob {
  /** The snapshot's build folder, holding the finished establishments.db and companies.db. */
  dir: string;
  part: number;
  parts: number;
}

export interface SearchProgress {
  part: number;
  step: 'establishments' | 'partners' | 'finishing';
  /** Rows of this part read so far, establishments and partners together. */
  done: number;
}

export interface SearchPartResult {
  documents: { establishments: number; partners: number };
  /** Seconds per step. */
  seconds: {
    establishments: number;
    /** The name_keys table sorted from the chunks' keys (name-keys.ts). */
    nameKeys: number;
    partners: number;
    /** The partner_keys table, likewise. */
    partnerKeys: number;
    optimize: number;
    vocabulary: number;
    counts: number;
    compact: number;
  };
  maxRssBytes: number;
}

/** The scratch file where part `i` writes its share of the shared tables. */
export function countsFile(dir: string, part: number): string {
  return path.join(dir, `.search-${part}-counts.db`);
}

/**
 * FTS5 settings while documents arrive (bulk) and for the finished index: no merging during the
 * build (each chunk becomes a few segments; one 'optimize' merges them all at the end, writing
 * every doclist once instead of once per merge level), defaults after it. Literals: better-sqlite3
 * binds a JS number as a REAL, which FTS5 refuses here.
 */
function ftsConfig(db: Sqlite, table: string, bulk: boolean): void {
  const set = (key: string, value: number) =>
    db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('${key}', ${value})`);
  set('automerge', bulk ? 0 : 4);
  set('crisismerge', bulk ? 1900 : 16);
  // 8 MB of pending terms (the default is 1 MB): every flush is a segment for 'optimize' to merge.
  // With 2 MB a part of a full month got thousands of segments, past crisismerge, so FTS5 merged
  // during the build too; 8 MB means far fewer segments and a faster 'optimize', where a 64 MB hash
  // inserted slower (cache misses). Measured: docs/benchmarks.md.
  set('hashsize', bulk ? 8 * 1024 * 1024 : 1024 * 1024);
  // Leaf pages of ~1000 bytes instead of 4050: an AND skips through a doclist by its index to a
  // page and then steps through the page; with 2-byte deltas a 4 KB page holds ~2,000 documents.
  // Measured on 1 M companies: queries that AND a common term markedly faster, for slightly more
  // bytes (500 bytes: more bytes again, little faster; docs/benchmarks.md).
  set('pgsz', 1000);
}

/** The rowid range (from, to] of part `i` of `n` in a table whose largest rowid is `max`. */
export function partRange(max: number, i: number, n: number): [number, number] {
  return [Math.floor((max * i) / n), i === n - 1 ? max : Math.floor((max * (i + 1)) / n)];
}

export async function buildSearchPart(
  job: SearchPartJob,
  onProgress: (p: SearchProgress) => void,
): Promise<SearchPartResult> {
  const final = path.join(job.dir, searchPartFile(job.part));
  const building = `${final}.building`;
  const counts = countsFile(job.dir, job.part);
  for (const f of [final, building, counts]) fs.rmSync(f, { force: true });
  // One connection: SQLite reads the snapshot (attached read-only) and writes the index itself.
  const write = openSqlite(building);
  let at = performance.now();
  const lap = () => {
    const now = performance.now();
    const s = (now - at) / 1000;
    at = now;
    return s;
  };
  try {
    bulkPragmas(write);
    for (const ddl of SEARCH_PART_DDL) write.exec(ddl);
    for (const t of ['est_fts', 'partner_fts']) ftsConfig(write, t, true);
    attachSnapshot(write, job.dir);
    // The snapshot files are read-only here: map them. Every establishment looks up its
    // company and Simples row at random (4 B-tree descents); through SQLite's 16 MB cache each
    // missed page is a pread and a 4 KB copy; mapped, the joins take markedly less CPU
    // (docs/benchmarks.md). The mapped pages are the OS cache's (they show in the peak RSS, but
    // are not this process's memory).
    for (const schema of ['est', 'reg']) write.pragma(`${schema}.mmap_size = ${SNAPSHOT_MMAP_BYTES}`);
    const agg = new Aggregates();
    const keys = new NameKeys(write);
    const partnerKeys = new NameKeys(write, 'partner_keys');
    registerDocumentFunctions(write, agg, keys, partnerKeys);

    const range = (max: number) => partRange(max, job.part, job.parts);
    const est = await indexEstablishments(
      write,
      range,
      (done) => onProgress({ part: job.part, step: 'establishments', done }),
      () => keys.flush(),
    );
    const tEst = lap();
    keys.finish();
    const tNameKeys = lap();
    const partners = await indexPartners(
      write,
      range,
      (done) => onProgress({ part: job.part, step: 'partners', done: est + done }),
      () => partnerKeys.flush(),
    );
    const tPartners = lap();
    partnerKeys.finish();
    const tPartnerKeys = lap();
    onProgress({ part: job.part, step: 'finishing', done: est + partners });
    for (const t of ['est_fts', 'partner_fts']) {
      write.exec(`INSERT INTO ${t} (${t}) VALUES ('optimize')`);
      ftsConfig(write, t, false);
    }
    const tOptimize = lap();
    buildVocabulary(write);
    const tVocabulary = lap();
    writeCounts(counts, agg, write);
    const tCounts = lap();
    // 'optimize' left the chunks' segments as free pages (about half the file): copy the live
    // pages into the final file rather than ship them.
    write.exec(`VACUUM INTO '${final.replace(/'/g, "''")}'`);
    write.close();
    fs.rmSync(building, { force: true });
    const tCompact = lap();
    return {
      documents: { establishments: est, partners },
      seconds: {
        establishments: tEst,
        nameKeys: tNameKeys,
        partners: tPartners,
        partnerKeys: tPartnerKeys,
        optimize: tOptimize,
        vocabulary: tVocabulary,
        counts: tCounts,
        compact: tCompact,
      },
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    if (write.open) write.close();
  }
}

function writeCounts(file: string, agg: Aggregates, read: Sqlite): void {
  const db = openSqlite(file);
  try {
    bulkPragmas(db);
    for (const ddl of SEARCH_SHARED_DDL) db.exec(ddl);
    const names = new Map<number, string>();
    for (const r of read.prepare('SELECT code, description FROM reg.municipios').all() as {
      code: unknown;
      description: unknown;
    }[]) {
      if (typeof r.code === 'number' && typeof r.description === 'string') names.set(r.code, r.description);
    }
    // The secondary CNAEs present, from the index's own vocabulary (their terms are written by SQL).
    read.exec(`CREATE VIRTUAL TABLE temp.vocab_codes USING fts5vocab(main, est_fts, 'row')`);
    const lo = term.cnae('', true);
    const secondary = (
      read
        .prepare('SELECT term FROM temp.vocab_codes WHERE term >= ? AND term < ?')
        .pluck()
        .all(lo, `${lo}{`) as string[]
    )
      .filter((t) => /^\d{7}$/.test(t.slice(lo.length)))
      .map((t) => Number(t.slice(lo.length)));
    read.exec('DROP TABLE temp.vocab_codes');
    agg.write(db, names, secondary);
  } finally {
    db.close();
  }
}
