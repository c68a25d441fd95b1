// Loads a list of sources into ONE snapshot file, tuned for bulk load, then de-duplicates, indexes
// and analyses it. The importer runs two of these at once, in two processes, one per file
// (SQLite allows one writer per file; two writers use both cores).
import fs from 'node:fs';
import { openSqlite, type Sqlite } from '../src/storage/sqlite.ts';
import { bulkPragmas } from '../src/storage/snapshots/bulk-pragmas.ts';
import type { TableStats } from '../src/storage/snapshots/records.ts';
import {
  ALL_TABLES,
  createIndexSql,
  createTableSql,
  keyIndex,
  type SnapshotFile,
  type TableDef,
} from '../src/storage/snapshots/tables.ts';
import { BatchInserter } from './batch-insert.ts';
import { DelimitedLayoutError, DelimitedParser } from './read/delimited.ts';
import { RecordParser, type RejectedRecord } from './read/records.ts';
import { openMemberStream, zipLabel, zipName } from './read/zip.ts';
import type { SourceFile } from './import-plan.ts';
import { sourceTable } from './tables/index.ts';

export interface WriterJob {
  file: SnapshotFile;
  dbPath: string;
  rejectsPath: string;
  sources: SourceFile[];
  /** key/value rows for the `meta` table (only the companies file carries it). */
  meta?: Record<string, string>;
  /** Test hook: cap the file size (in pages) to provoke SQLITE_FULL like a full disk. */
  maxPageCount?: number;
  /** Per-table bytes via dbstat: a full scan of the file, so only the benchmark asks for it. */
  measureTableBytes?: boolean;
}

export interface WriterProgress {
  compressedBytes: number;
  rows: number;
  current: string;
}

export interface WriterResult {
  tables: Record<string, TableStats>;
  /** Optional files left out, each with why (a tax-regime file in another layout). */
  skipped: string[];
  maxRssBytes: number;
  seconds: { load: number; index: number };
}

const BATCH = 50_000;

/**
 * Rejected records written per rejects file; the rest are only counted (the summary has the
 * totals). A 20 KB zip of 10 million bad lines wrote a 1 GB file, one write each: a 1 MB one
 * could fill the disk the live app.db is on.
 */
export const MAX_REJECT_LINES = 10_000;

class Rejects {
  private fd: number | null = null;
  private written = 0;
  constructor(private readonly file: string) {}
  write(source: string, r: RejectedRecord): void {
    if (this.written > MAX_REJECT_LINES) return;
    if (this.written++ === MAX_REJECT_LINES) {
      fs.writeSync(
        this.fd!,
        `${source}\t\t\tonly the first ${MAX_REJECT_LINES} rejected records are written here; the import summary counts them all\t""\n`,
      );
      return;
    }
    if (this.fd === null) {
      this.fd = fs.openSync(this.file, 'a');
      if (fs.fstatSync(this.fd).size === 0) fs.writeSync(this.fd, 'file\trecord\tline\treason\tcontent\n');
    }
    const raw = r.raw.length > 4000 ? r.raw.slice(0, 4000) + '…' : r.raw;
    fs.writeSync(this.fd, `${source}\t${r.recordNo}\t${r.line}\t${r.reason}\t${JSON.stringify(raw)}\n`);
  }
  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
  }
}

export async function writeSnapshotPart(
  job: WriterJob,
  onProgress: (p: WriterProgress) => void,
): Promise<WriterResult> {
  const started = performance.now();
  const db = openSqlite(job.dbPath);
  const rejects = new Rejects(job.rejectsPath);
  const tables = ALL_TABLES.filter((t) => t.file === job.file);
  const stats: Record<string, TableStats> = Object.fromEntries(
    tables.map((t) => [t.name, { rows: 0, rejected: 0, duplicates: 0 }]),
  );
  const skipped: string[] = [];
  try {
    bulkPragmas(db);
    if (job.maxPageCount) db.pragma(`max_page_count = ${job.maxPageCount}`);
    for (const t of tables) db.exec(createTableSql(t));
    if (job.meta) {
      db.exec('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
      const put = db.prepare('INSERT INTO meta VALUES (?, ?)');
      for (const [k, v] of Object.entries(job.meta)) put.run(k, v);
    }

    let compressedDone = 0;
    let rowsTotal = 0;
    let lastReport = 0;
    db.exec('BEGIN');
    let inBatch = 0;
    for (const src of job.sources) {
      const def = sourceTable(src.kind);
      const insert = new BatchInserter(db, def.table);
      const st = stats[def.table.name];
      // `Empresas0.zip:K3241…EMPRECSV`, or `2026-09.zip:Empresas0.zip:K3241…EMPRECSV` from a folder download.
      const label = `${zipLabel(src.zip)}:${src.member.name}`;
      let compressed = 0;
      const report = (force = false) => {
        const now = performance.now();
        if (!force && now - lastReport < 200) return;
        lastReport = now;
        onProgress({ compressedBytes: compressedDone + compressed, rows: rowsTotal, current: zipName(src.zip) });
      };
      const onRecord = (fields: string[], recordNo: number, line: number) => {
        const row = def.toRow(fields);
        if (typeof row === 'string') {
          st.rejected++;
          rejects.write(label, { raw: fields.join(';'), recordNo, line, reason: row });
          return;
        }
        insert.add(row);
        st.rows++;
        rowsTotal++;
        if (++inBatch === BATCH) {
          db.exec('COMMIT');
          db.exec('BEGIN');
          inBatch = 0;
        }
      };
      const onReject = (r: RejectedRecord) => {
        st.rejected++;
        rejects.write(label, r);
      };
      const sourceStarted = performance.now();
      const stream = openMemberStream(src.zip, src.member, { onCompressedBytes: (n) => (compressed += n) });
      const parser =
        src.kind === 'regimes'
          ? new DelimitedParser({ expectedHeader: def.layout, onRecord, onReject })
          : new RecordParser({ expectedFields: def.layout.length, onRecord, onReject });
      try {
        for await (const chunk of stream) {
          parser.push(chunk as Buffer);
          report();
        }
        parser.end();
      } catch (err) {
        // The regime files are supplementary: one whose header changed is left out, not the month.
        // The layout is judged on the first line, before any of its rows was added.
        if (!(err instanceof DelimitedLayoutError)) throw err;
        stream.destroy();
        skipped.push(`${label}: ${err.message}`);
      }
      insert.flush();
      st.seconds = (st.seconds ?? 0) + (performance.now() - sourceStarted) / 1000;
      compressedDone += src.member.compressedSize;
      compressed = 0;
      report(true);
    }
    db.exec('COMMIT');
    const loaded = performance.now();

    for (const t of tables) finishTable(db, t, stats[t.name]);
    db.pragma('analysis_limit = 1000');
    db.exec('ANALYZE');
    const done = performance.now();
    // Not part of an import's work: measured after the clock stops.
    if (job.measureTableBytes) for (const t of tables) stats[t.name].bytes = tableBytes(db, t);
    return {
      tables: stats,
      skipped,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      seconds: { load: (loaded - started) / 1000, index: (done - loaded) / 1000 },
    };
  } finally {
    rejects.close();
    if (db.open) db.close();
  }
}

/** Builds the lookup index, then drops duplicate keys (the row read last wins) or identical rows. */
function finishTable(db: Sqlite, t: TableDef, st: TableStats): void {
  db.exec(createIndexSql(t));
  if (t.uniqueKey) dropDuplicateKeys(db, t, t.uniqueKey, st);
  else if (t.dropIdentical) st.duplicates += db.prepare(dropIdenticalSql(t)).run().changes;
  st.rows -= st.duplicates;
}

function dropDuplicateKeys(db: Sqlite, t: TableDef, key: string, st: TableStats): void {
  const dups = db
    .prepare(`SELECT ${key} AS k, max(rowid) AS keep, count(*) AS n FROM ${t.name} GROUP BY ${key} HAVING count(*) > 1`)
    .all() as { k: unknown; keep: number; n: number }[];
  if (!dups.length) return;
  const del = db.prepare(`DELETE FROM ${t.name} WHERE ${key} = ? AND rowid <> ?`);
  db.transaction(() => {
    for (const d of dups) st.duplicates += del.run(d.k, d.keep).changes;
  })();
}

/**
 * Deletes every row equal in all its columns to a row read before it. Equal rows share the lookup
 * index's columns (the key, then the digest of the rest), so one ordered scan of that index finds
 * the few groups worth reading (no sort, memory flat); within them, rows are compared column by
 * column with IS (type and value, NULL equal to NULL), so a digest collision keeps both rows.
 * On a full month's partners it takes seconds, most of them the scan (docs/benchmarks.md); it
 * runs in the companies writer, which ends before the establishments one.
 */
export function dropIdenticalSql(t: TableDef): string {
  const { name: index, columns: keys } = keyIndex(t);
  const rest = t.columns.map(([c]) => c).filter((c) => !keys.includes(c));
  const sameKeys = (a: string, b: string) => keys.map((c) => `${a}.${c} = ${b}.${c}`).join(' AND ');
  return (
    `DELETE FROM ${t.name} WHERE rowid IN (` +
    `SELECT p.rowid FROM (SELECT ${keys.join(', ')} FROM ${t.name} INDEXED BY ${index} GROUP BY ${keys.join(', ')} HAVING count(*) > 1) g ` +
    `JOIN ${t.name} p ON ${sameKeys('p', 'g')} ` +
    `WHERE EXISTS (SELECT 1 FROM ${t.name} q WHERE ${sameKeys('q', 'p')} AND q.rowid < p.rowid` +
    rest.map((c) => ` AND q.${c} IS p.${c}`).join('') +
    '))'
  );
}

/** Bytes of a table and its index, from the dbstat virtual table when compiled in. */
function tableBytes(db: Sqlite, t: TableDef): number | undefined {
  try {
    const r = db
      .prepare(
        `SELECT sum(pgsize) AS b FROM dbstat WHERE name = ? OR name IN (SELECT name FROM sqlite_master WHERE tbl_name = ? AND type = 'index')`,
      )
      .get(t.name, t.name) as { b: number | null };
    return r.b ?? 0;
  } catch {
    return undefined;
  }
}
