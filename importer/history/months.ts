// Which months to compare, for the import and for the operator (`cnpj-api history`): the kept
// snapshot of a month, the month before it, and the rules of record.ts against the recorded months.
import fs from 'node:fs';
import { dataPaths } from '../../src/lib/config.ts';
import { historyMonths, openHistoryReader } from '../../src/storage/history/db.ts';
import type { HistoryMonth } from '../../src/storage/history/schema.ts';
import type { SnapshotInfo } from '../../src/storage/snapshots/records.ts';
import {
  decideMonth,
  olderMonthReason,
  previousSnapshot,
  recordMonth,
  type MonthSnapshot,
  type RecordResult,
} from './record.ts';

export const NO_EARLIER_MONTH = 'no earlier month kept: no differences recorded';

/** The recorded months, newest first; none (and no file created) before the first. */
export function recordedMonths(dataDir: string): HistoryMonth[] {
  const db = openHistoryReader(dataDir);
  if (db === null) return [];
  try {
    return historyMonths(db);
  } finally {
    db.close();
  }
}

export type RecordingPlan =
  { record: true; before: MonthSnapshot; replaces: boolean } | { record: false; reason: string };

/** What recording `month` would do: compare it with the newest kept earlier month, or why not. */
export function planRecording(
  recorded: readonly HistoryMonth[],
  snapshots: readonly SnapshotInfo[],
  month: string,
): RecordingPlan {
  const before = previousSnapshot(snapshots, month);
  if (before === null) {
    const last = recorded[0]?.month;
    // An older month than the history's end says so, whether or not an earlier month is kept.
    if (last !== undefined && month < last) return { record: false, reason: olderMonthReason(last, month) };
    return { record: false, reason: NO_EARLIER_MONTH };
  }
  const d = decideMonth(recorded, before.month, month);
  return d.record
    ? { record: true, before: { month: before.month, dir: before.dir }, replaces: d.replaces }
    : { record: false, reason: d.reason };
}

/** history.db's size on disk, its write-ahead log included (0 before the first month). */
export function historyBytes(dataDir: string): number {
  const file = dataPaths(dataDir).historyDb;
  return ['', '-wal'].reduce((n, s) => n + (fs.statSync(file + s, { throwIfNoEntry: false })?.size ?? 0), 0);
}

/**
 * `cnpj-api history record --month`: compares a kept snapshot of `month` (the newest import of it)
 * with the kept month before it and records the differences, for a month whose recording failed
 * or was skipped. Refused, with the reason, when the rules of record.ts say no.
 */
export function recordKeptMonth(dataDir: string, snapshots: readonly SnapshotInfo[], month: string): RecordResult {
  const after = snapshots.find((s) => s.month === month && s.status !== 'deleted');
  if (!after) throw new Error(`no kept snapshot of month ${month} (kept: ${keptMonths(snapshots) || 'none'})`);
  const plan = planRecording(recordedMonths(dataDir), snapshots, month);
  if (!plan.record) return { recorded: false, month, reason: plan.reason };
  return recordMonth(dataDir, plan.before, { month, dir: after.dir });
}

function keptMonths(snapshots: readonly SnapshotInfo[]): string {
  return [...new Set(snapshots.filter((s) => s.status !== 'deleted').map((s) => s.month))].sort().join(', ');
}
