// The history step of an import (docs/history.md, "Wiring"): after the completeness checks, the
// snapshot being built is compared with the newest kept earlier month, in two child processes
// (`cnpj-api __import-history`, process.ts) running beside the search build: one finds the
// establishments' changes, the other the companies' (they share nothing; on two free cores this
// halves the step). Each records into its own staging history file in the build folder; just
// before the publish the month is moved into history.db from both, in one transaction. So a refused, failed or killed import leaves history.db as it was,
// and history.db never holds a month that was not published. A failed comparison is logged and
// the import goes on: the month then has no differences (a re-import or `history record` adds them).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../../src/lib/config.ts';
import { tipoCounts } from './counts.ts';
import { planRecording, recordedMonths, type RecordingPlan } from './months.ts';
import type { ComparePart } from './compare.ts';
import type { MonthSnapshot, RecordResult } from './record.ts';
import { openHistoryDb } from '../../src/storage/history/db.ts';
import { mergeStagedMonth, type MergedMonth } from '../../src/storage/history/merge.ts';
import type { SnapshotInfo } from '../../src/storage/snapshots/records.ts';
import { runChildren } from '../writer-pool.ts';

export interface HistoryJob {
  /** The staging "data dir" (a folder in the build folder): recordMonth writes its history.db there. */
  stagingDir: string;
  before: MonthSnapshot;
  after: MonthSnapshot;
  part: ComparePart;
}

const PARTS: ComparePart[] = ['establishments', 'companies'];

export interface HistoryChildResult {
  result: RecordResult;
  maxRssBytes: number;
}

export interface HistorySummary {
  /** What was recorded, or why nothing was; null when the comparison failed (see error). */
  result: RecordResult | null;
  error: string | null;
  /** Wall seconds from the start of the comparison to the month in history.db. */
  seconds: number;
  /**
   * How long the publish waited for the step after the search build: the rest of the comparison
   * and the move into history.db. Not all it costs: on a machine without a spare core the
   * comparison also slows the search build (compare with an import using --skip-history).
   */
  waitSeconds: number;
  maxRssBytes: number;
}

export interface StartedHistory {
  month: string;
  /** One staging folder per part. */
  stagingDirs: string[];
  plan: RecordingPlan;
  started: number;
  /** Settles when both comparisons have ended (their results in PARTS order); never rejects. */
  staged: Promise<{ children: HistoryChildResult[] | null; error: string | null }>;
}

/** Decides what to compare and starts the comparison; returns at once. */
export function startHistory(o: {
  dataDir: string;
  snapshots: SnapshotInfo[];
  month: string;
  buildDir: string;
  children: ChildProcess[];
  log: (line: string) => void;
}): StartedHistory {
  const started = performance.now();
  let plan: RecordingPlan;
  try {
    plan = planRecording(recordedMonths(o.dataDir), o.snapshots, o.month);
  } catch (err) {
    // An unreadable history.db must not fail the import either.
    plan = { record: false, reason: `history.db cannot be read: ${(err as Error).message}` };
  }
  if (!plan.record) {
    o.log(`history: ${plan.reason}`);
    return { month: o.month, stagingDirs: [], plan, started, staged: Promise.resolve({ children: null, error: null }) };
  }
  o.log(
    `history: comparing ${o.month} with ${plan.before.month}${plan.replaces ? ` (replaces the ${o.month} already recorded)` : ''}`,
  );
  const before = plan.before;
  const jobs: HistoryJob[] = PARTS.map((part) => ({
    stagingDir: path.join(o.buildDir, `history-${part}`),
    before,
    after: { month: o.month, dir: o.buildDir },
    part,
  }));
  const staged = runChildren<HistoryJob, HistoryChildResult, object>(
    '__import-history',
    jobs,
    (j) => `history (${j.part})`,
    o.children,
    () => {},
  ).then(
    (children) => ({ children, error: null }),
    (err: Error) => ({ children: null, error: err.message }),
  );
  return { month: o.month, stagingDirs: jobs.map((j) => j.stagingDir), plan, started, staged };
}

/**
 * Waits for both comparisons, then moves the month into history.db (or says why not) and removes
 * the staging files. Nothing is awaited after the move: the caller publishes right after it, so a signal
 * (handled on a later turn of the event loop) finds both done or neither.
 */
export async function finishHistory(
  dataDir: string,
  h: StartedHistory,
  log: (line: string) => void,
): Promise<HistorySummary> {
  const waitStarted = performance.now();
  const s = await h.staged;
  const summary = (result: RecordResult | null, error: string | null): HistorySummary => {
    const now = performance.now();
    return {
      result,
      error,
      seconds: (now - h.started) / 1000,
      waitSeconds: (now - waitStarted) / 1000,
      maxRssBytes: Math.max(0, ...(s.children ?? []).map((c) => c.maxRssBytes)),
    };
  };
  if (!h.plan.record)
    return {
      result: { recorded: false, month: h.month, reason: h.plan.reason },
      error: null,
      seconds: 0,
      waitSeconds: 0,
      maxRssBytes: 0,
    };
  try {
    if (s.children === null) throw new Error(s.error ?? 'no result');
    const results = s.children.map((c) => c.result);
    const refused = results.find((r): r is Extract<RecordResult, { recorded: false }> => !r.recorded);
    if (refused) {
      log(`history: ${refused.reason}`);
      return summary(refused, null);
    }
    const done = results as Extract<RecordResult, { recorded: true }>[];
    const db = openHistoryDb(dataDir);
    let merged: MergedMonth;
    try {
      merged = mergeStagedMonth(
        db,
        h.stagingDirs.map((d) => dataPaths(d).historyDb),
        h.month,
      );
    } finally {
      db.close();
    }
    // The longer of the two comparisons; the counts as written into history.db.
    const r = { ...done[0], counts: merged.counts, seconds: Math.max(...done.map((x) => x.seconds)) };
    const out = summary({ ...r, replaced: h.plan.replaces }, null);
    const t = tipoCounts(r.counts);
    const parts = done
      .map((x, i) => `${PARTS[i]} ${x.phases.comparison.toFixed(1)} + ${x.phases.subjects.toFixed(1)} s`)
      .join(', ');
    log(
      `history: ${h.month} recorded against ${r.fromMonth}: ${t.abertura} abertura, ${t.encerramento} encerramento, ${t.alteracao} alteracao (comparison ${r.seconds.toFixed(1)} s: ${parts} for changes + feed subjects; the publish waited ${out.waitSeconds.toFixed(1)} s for it)`,
    );
    return out;
  } catch (err) {
    const message = (err as Error).message;
    log(
      `history: recording ${h.month} failed (${message}); the import goes on without differences for ${h.month} (re-import it, or run \`cnpj-api history record --month ${h.month}\`)`,
    );
    return summary(null, message);
  } finally {
    for (const d of h.stagingDirs) fs.rmSync(d, { recursive: true, force: true });
  }
}
