// `cnpj-api import`: plan → two writer processes (establishments | everything else) → verify →
// publish atomically → prune. Any failure (bad zip, full disk, a signal) removes the half-built
// snapshot and leaves the active one untouched.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { dataPaths } from '../src/lib/config.ts';
import { isMonth } from '../src/lib/month.ts';
import { openAppDb } from '../src/storage/app/sqlite.ts';
import {
  activeSnapshot,
  listSnapshots,
  type SnapshotStats,
  type TableStats,
} from '../src/storage/snapshots/records.ts';
import { openSqlite } from '../src/storage/sqlite.ts';
import {
  ALL_TABLES,
  SNAPSHOT_FILES,
  SNAPSHOT_SCHEMA_VERSION,
  type SnapshotFile,
} from '../src/storage/snapshots/tables.ts';
import { planProblems, refusal, regimeWarning, rowProblems, staleProblems } from './completeness.ts';
import { ProgressLine, type ProgressState } from './progress-line.ts';
import {
  abandonBuild,
  checkFreeSpace,
  cleanStaleBuilds,
  dirBytes,
  newSnapshotId,
  publish,
  pruneSnapshots,
  startBuild,
} from '../src/storage/snapshots/lifecycle.ts';
import { zipName } from './read/zip.ts';
import { planImport, type SourceFile } from './import-plan.ts';
import type { WriterJob, WriterResult } from './writer.ts';
import { runWriters } from './writer-pool.ts';
import { buildSearch, type SearchSummary } from './search/build.ts';
import { finishHistory, startHistory, type HistorySummary } from './history/step.ts';

export interface ImportOptions {
  dataDir: string;
  inputs: string[];
  /** YYYY-MM; default: the folder name or the members' extraction dates. */
  month?: string;
  /** Progress line on stderr when it is a TTY. */
  progress?: boolean;
  skipSpaceCheck?: boolean;
  /** Snapshots kept on disk, the active one included (default 2: rollback to last month stays possible). */
  keep?: number;
  /** Marks the snapshot as synthetic data (status and /api/v1/status say so). */
  synthetic?: boolean;
  /** Publish an incomplete month anyway (see completeness.ts); the reasons stay in its stats. `update` never sets it. */
  allowPartial?: boolean;
  measureTableBytes?: boolean;
  /** Build the search index (default true); without it the snapshot serves lookups only. */
  search?: boolean;
  /** Search builder processes (default 2). */
  searchParts?: number;
  /** Record the month's differences in history.db (default true; docs/history.md). */
  history?: boolean;
  log?: (line: string) => void;
  /** Test hooks. */
  testHooks?: { maxPageCount?: number; onWritersStarted?: (pids: number[]) => void };
}

export interface ImportSummary {
  snapshotId: string;
  month: string;
  dir: string;
  stats: SnapshotStats;
  previous: string | null;
  pruned: string[];
  rejectsFiles: string[];
  peakRssBytes: { parent: number; writers: number[]; search: number[] };
  /** Per writer process: seconds loading, seconds indexing/de-duplicating. */
  writers: { file: SnapshotFile; load: number; index: number }[];
  /** The search build (null when skipped): seconds, bytes, per part the seconds of each step. */
  search: SearchSummary | null;
  /** The history step (null when skipped): what was recorded or why not, or the comparison's error. */
  history: HistorySummary | null;
  compressedBytes: number;
}

export class ImportError extends Error {
  override name = 'ImportError';
}

/** A month refused as incomplete: its message already says the active snapshot is unchanged. */
class IncompleteMonth extends ImportError {}

export async function runImport(opts: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const log = opts.log ?? (() => {});
  const paths = dataPaths(opts.dataDir);
  const app = await openAppDb(opts.dataDir);
  let buildDir: string | null = null;
  const children: ChildProcess[] = [];
  const onSignal = (sig: NodeJS.Signals) => {
    for (const c of children) c.kill('SIGKILL');
    if (buildDir) abandonBuild(buildDir);
    log(`import interrupted (${sig}); the active snapshot is unchanged`);
    process.exit(130);
  };
  try {
    const removed = cleanStaleBuilds(paths.registryDir);
    for (const name of removed) log(`removed the unfinished snapshot of an interrupted import: ${name}`);
    const plan = await planImport(opts.inputs);
    if (!plan.sources.length) throw new ImportError(`no Receita file recognised in ${opts.inputs.join(', ')}`);
    const month = opts.month ?? plan.detectedMonth;
    if (!month) throw new ImportError('cannot tell the month from the file names: pass --month YYYY-MM');
    if (!isMonth(month)) throw new ImportError(`invalid month "${month}": use YYYY-MM`);
    // Checked before the long load, so that a refusal comes at once.
    const previous = activeSnapshot(app.sqlite, paths.registryDir);
    const partial = [...planProblems(plan), ...staleProblems(plan, month, previous)];
    judge(partial, opts, log);
    const regimes = regimeWarning(plan);
    if (regimes) log(`warning: ${regimes}`);
    if (!opts.skipSpaceCheck) checkFreeSpace(paths.registryDir, plan.compressedBytes);

    const id = newSnapshotId(paths.registryDir, month, new Date(), removed);
    buildDir = startBuild(paths.registryDir, id);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const importedAt = new Date().toISOString();

    const jobs: WriterJob[] = (Object.keys(SNAPSHOT_FILES) as SnapshotFile[]).map((file) => ({
      file,
      dbPath: path.join(buildDir!, SNAPSHOT_FILES[file]),
      rejectsPath: path.join(buildDir!, `rejects-${file}.tsv`),
      sources: plan.sources.filter((s: SourceFile) => (s.kind === 'establishments') === (file === 'establishments')),
      meta:
        file === 'companies'
          ? {
              schema_version: String(SNAPSHOT_SCHEMA_VERSION),
              month,
              imported_at: importedAt,
              synthetic: opts.synthetic ? '1' : '0',
            }
          : undefined,
      maxPageCount: opts.testHooks?.maxPageCount,
      measureTableBytes: opts.measureTableBytes,
    }));

    const state: ProgressState = { totalCompressed: plan.compressedBytes, parts: new Map() };
    const progress = new ProgressLine(state);
    if (opts.progress) progress.start();
    let results: WriterResult[];
    try {
      results = await runWriters(jobs, state, children, opts.testHooks?.onWritersStarted);
    } finally {
      progress.stop();
    }

    const tables: Record<string, TableStats> = {};
    for (const r of results) Object.assign(tables, r.tables);
    const skipped = results.flatMap((r) => r.skipped);
    for (const why of skipped) log(`warning: left out a tax-regime file in another layout: ${why}`);
    verify(buildDir, tables);
    const emptyOrShrunk = rowProblems(plan, tables, previous);
    judge(emptyOrShrunk, opts, log);
    partial.push(...emptyOrShrunk);
    const loadedRows = ['establishments', 'companies', 'partners', 'simples', 'regimes'].reduce(
      (s, t) => s + (tables[t]?.rows ?? 0),
      0,
    );
    if (loadedRows === 0)
      throw new ImportError('no company, establishment, partner, Simples or regime row was imported');

    // After the checks (a refused month costs no search build nor comparison), before the publish;
    // the comparison runs in its own process beside the search build.
    const history =
      (opts.history ?? true)
        ? startHistory({
            dataDir: opts.dataDir,
            snapshots: listSnapshots(app.sqlite, paths.registryDir),
            month,
            buildDir,
            children,
            log,
          })
        : null;
    let search: SearchSummary | null = null;
    if (opts.search ?? true) {
      log('building the search index');
      search = await buildSearch(buildDir, tables, { parts: opts.searchParts, progress: opts.progress, children });
      log(`search index built in ${search.seconds.toFixed(1)} s (${(search.bytes / 1e6).toFixed(1)} MB)`);
    }

    // From here to the publish nothing else is awaited: history.db and the pointer change together.
    const historySummary = history && (await finishHistory(opts.dataDir, history, log));
    const stats: SnapshotStats = {
      tables,
      sourceFiles: [...new Set(plan.sources.map((s) => zipName(s.zip)))],
      missingFiles: plan.missing,
      seconds: (performance.now() - started) / 1000,
      bytes: dirBytes(buildDir),
      ...(opts.synthetic ? { synthetic: true } : {}),
      ...(plan.extracted ? { extracted: plan.extracted } : {}),
      ...(skipped.length ? { skipped } : {}),
      ...(partial.length ? { partial } : {}),
    };
    const dir = publish(app.sqlite, paths.registryDir, buildDir, { id, month, importedAt, stats });
    buildDir = null;
    const pruned = pruneSnapshots(app.sqlite, paths.registryDir, opts.keep ?? 2);
    return {
      snapshotId: id,
      month,
      dir,
      stats,
      previous: previous?.id ?? null,
      pruned,
      // The rejects files moved with the build folder.
      rejectsFiles: jobs
        .filter((j) => hasRejects(tables, j.file))
        .map((j) => path.join(dir, path.basename(j.rejectsPath))),
      peakRssBytes: {
        parent: process.resourceUsage().maxRSS * 1024,
        writers: results.map((r) => r.maxRssBytes),
        search: search?.parts.map((p) => p.maxRssBytes) ?? [],
      },
      writers: results.map((r, i) => ({ file: jobs[i].file, ...r.seconds })),
      search,
      history: historySummary,
      compressedBytes: plan.compressedBytes,
    };
  } catch (err) {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    const message = (err as Error).message;
    // Once a build has started, say what happened to it; errors before that are about the input.
    if (buildDir) {
      abandonBuild(buildDir);
      if (err instanceof IncompleteMonth) throw err;
      throw new ImportError(`${message}; the import was cancelled and the active snapshot is unchanged`);
    }
    throw err instanceof ImportError ? err : new ImportError(message);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await app.close();
  }
}

/** Refuses an incomplete month, or says that it is published anyway. */
function judge(problems: string[], opts: ImportOptions, log: (line: string) => void): void {
  if (!problems.length) return;
  if (!opts.allowPartial) throw new IncompleteMonth(refusal(problems));
  log(`warning: publishing an incomplete month (--allow-partial): ${problems.join('; ')}`);
}

function hasRejects(tables: Record<string, TableStats>, file: SnapshotFile): boolean {
  return ALL_TABLES.some((t) => t.file === file && (tables[t.name]?.rejected ?? 0) > 0);
}

/** Opens the finished files read-only and checks that every table is there with the rows counted. */
function verify(buildDir: string, tables: Record<string, TableStats>): void {
  for (const file of Object.keys(SNAPSHOT_FILES) as SnapshotFile[]) {
    const db = openSqlite(path.join(buildDir, SNAPSHOT_FILES[file]), { readonly: true, fileMustExist: true });
    try {
      for (const t of ALL_TABLES.filter((t) => t.file === file)) {
        // An existence probe, not count(*): counting 70 M rows would read the whole table.
        const r = db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ${t.name} LIMIT 1)`).get() as { n: number };
        if (r.n > 0 !== tables[t.name].rows > 0)
          throw new ImportError(`check failed: table ${t.name} does not hold the expected rows`);
      }
      if (file === 'companies') {
        const v = db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).get() as
          { value: string } | undefined;
        if (v?.value !== String(SNAPSHOT_SCHEMA_VERSION)) throw new ImportError('check failed: schema version missing');
      }
    } finally {
      db.close();
    }
  }
}
