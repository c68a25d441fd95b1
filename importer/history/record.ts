// Recording a month's differences in history.db, and the rules for months that come out of order
// (docs/history.md):
// - a month after the last recorded one is recorded;
// - the last recorded month again (a re-import) REPLACES its differences, in one transaction;
// - a month before the last recorded one records nothing (history is a chain of consecutive
//   imports; slotting an old month in would make its neighbour's differences wrong), and says so.
import { historyMonths, openHistoryDb, writeMonth } from '../../src/storage/history/db.ts';
import type { HistoryMonth } from '../../src/storage/history/schema.ts';
import { comparePair, type ChangeSink, type ComparePart } from './compare.ts';
import { GatheredSubjects } from './gathered-subjects.ts';
import { SnapshotPair } from './pair.ts';
import { writeSubjects } from './subjects.ts';

/** A snapshot to compare: its month and its directory. */
export interface MonthSnapshot {
  month: string;
  dir: string;
}

export type HistoryDecision = { record: true; replaces: boolean } | { record: false; reason: string };

/** Why an older month than the history's last records nothing. */
export const olderMonthReason = (last: string, month: string): string =>
  `the history already goes to ${last}; an older month (${month}) records nothing`;

export function decideMonth(recorded: readonly HistoryMonth[], before: string, after: string): HistoryDecision {
  if (before >= after)
    return { record: false, reason: `the earlier snapshot's month ${before} is not before ${after}` };
  const last = recorded.reduce<string | null>((m, r) => (m === null || r.month > m ? r.month : m), null);
  if (last !== null && after < last) {
    return { record: false, reason: olderMonthReason(last, after) };
  }
  return { record: true, replaces: last === after };
}

/** Seconds spent finding the changes, and writing the feed subjects after them. */
export interface RecordPhases {
  comparison: number;
  subjects: number;
}

export type RecordResult =
  | {
      recorded: true;
      month: string;
      fromMonth: string;
      replaced: boolean;
      counts: Record<string, number>;
      seconds: number;
      phases: RecordPhases;
    }
  | { recorded: false; month: string; reason: string };

/**
 * Compares `before` with `after` and records the differences as `after.month`'s, by the rules above.
 * With `part`, only that part's changes (compare.ts): an import records each part into its own
 * staging file at once and merges both (storage/history/merge.ts).
 */
export function recordMonth(
  dataDir: string,
  before: MonthSnapshot,
  after: MonthSnapshot,
  options: { part?: ComparePart } = {},
): RecordResult {
  const db = openHistoryDb(dataDir);
  try {
    const decision = decideMonth(historyMonths(db), before.month, after.month);
    if (!decision.record) return { recorded: false, month: after.month, reason: decision.reason };
    const started = performance.now();
    const phases = { comparison: 0, subjects: 0 };
    // One pair of open snapshots for the comparison and the feed's subjects (subjects.ts), which
    // are written in the same transaction as the changes, once those are in place.
    const pair = new SnapshotPair(before.dir, after.dir);
    let counts: Record<string, number>;
    try {
      const gathered = new GatheredSubjects(after.dir);
      try {
        counts = writeMonth(
          db,
          after.month,
          before.month,
          (insert) => {
            const sink: ChangeSink = (cnpj, tipo, campo, antes, depois) => {
              insert(cnpj, tipo, campo, antes, depois);
              gathered.change(cnpj, tipo, campo);
            };
            return comparePair(pair, sink, options.part, (row) => gathered.row(row));
          },
          () => {
            phases.comparison = (performance.now() - started) / 1000;
            writeSubjects(db, after.month, pair, gathered);
            phases.subjects = (performance.now() - started) / 1000 - phases.comparison;
          },
        );
      } finally {
        gathered.close();
      }
    } finally {
      pair.close();
    }
    return {
      recorded: true,
      month: after.month,
      fromMonth: before.month,
      replaced: decision.replaces,
      counts,
      seconds: (performance.now() - started) / 1000,
      phases,
    };
  } finally {
    db.close();
  }
}

/**
 * The snapshot to compare a newly imported month with: the newest kept snapshot of an earlier
 * month (not the active one when the same month is imported again). Null when none is kept.
 */
export function previousSnapshot<S extends MonthSnapshot & { status: string }>(
  snapshots: readonly S[],
  month: string,
): S | null {
  let best: S | null = null;
  for (const s of snapshots)
    if (s.status !== 'deleted' && s.month < month && (best === null || s.month > best.month)) best = s;
  return best;
}
