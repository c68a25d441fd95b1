// The snapshot records in app.db (registry_snapshots): the active-snapshot pointer, the list,
// publishing and deletion marks.
// Publishing is one transaction: the new row becomes 'active', the old one 'retired'.
import path from 'node:path';
import type { Sqlite } from '../sqlite.ts';

export interface TableStats {
  rows: number;
  rejected: number;
  duplicates: number;
  /** Bytes of the table and its index (benchmark only: measuring reads the whole file). */
  bytes?: number;
  /** Seconds spent reading, parsing and inserting this table's sources. */
  seconds?: number;
}

export interface SnapshotStats {
  tables: Record<string, TableStats>;
  sourceFiles: string[];
  missingFiles: string[];
  seconds: number;
  bytes: number;
  synthetic?: boolean;
  /** The extraction date most of the month's member names carry (`2026-09-13`), when they carry one. */
  extracted?: string;
  /** Optional files left out, each with why (a tax-regime file in another layout). */
  skipped?: string[];
  /** Published with --allow-partial: what was missing, empty, too small or stale. */
  partial?: string[];
}

export interface SnapshotInfo {
  id: string;
  month: string;
  /** Absolute path of the snapshot directory. */
  dir: string;
  status: 'active' | 'retired' | 'deleted';
  importedAt: string;
  stats: SnapshotStats;
  /** The release it was pulled from or published as (docs/releases.md); null: imported here only. */
  release: string | null;
}

interface SnapshotRowRaw {
  id: string;
  month: string;
  dir: string;
  status: SnapshotInfo['status'];
  imported_at: string;
  stats_json: string;
  release_id: string | null;
}

function fromRow(r: SnapshotRowRaw, registryDir: string): SnapshotInfo {
  return {
    id: r.id,
    month: r.month,
    dir: path.resolve(registryDir, r.dir),
    status: r.status,
    importedAt: r.imported_at,
    stats: JSON.parse(r.stats_json) as SnapshotStats,
    release: r.release_id ?? null,
  };
}

/** Cheap enough to call on a timer: one indexed row. */
export function activeSnapshot(sqlite: Sqlite, registryDir: string): SnapshotInfo | null {
  const r = sqlite.prepare(`SELECT * FROM registry_snapshots WHERE status = 'active'`).get() as
    SnapshotRowRaw | undefined;
  return r ? fromRow(r, registryDir) : null;
}

export function listSnapshots(sqlite: Sqlite, registryDir: string): SnapshotInfo[] {
  const rows = sqlite.prepare(`SELECT * FROM registry_snapshots ORDER BY imported_at DESC`).all() as SnapshotRowRaw[];
  return rows.map((r) => fromRow(r, registryDir));
}

/** Makes `dir` (relative to the registry folder) the active snapshot, atomically. */
export function recordPublished(
  sqlite: Sqlite,
  s: { id: string; month: string; dir: string; importedAt: string; stats: SnapshotStats; release?: string },
): void {
  sqlite
    .transaction(() => {
      sqlite.prepare(`UPDATE registry_snapshots SET status = 'retired' WHERE status = 'active'`).run();
      sqlite
        .prepare(
          `INSERT INTO registry_snapshots (id, month, dir, status, imported_at, stats_json, release_id) VALUES (?, ?, ?, 'active', ?, ?, ?)`,
        )
        .run(s.id, s.month, s.dir, s.importedAt, JSON.stringify(s.stats), s.release ?? null);
    })
    .immediate();
}

export function markDeleted(sqlite: Sqlite, id: string): void {
  sqlite.prepare(`UPDATE registry_snapshots SET status = 'deleted' WHERE id = ? AND status = 'retired'`).run(id);
}

/** Names the release a snapshot was published as (its publisher's answers then carry that id too). */
export function recordRelease(sqlite: Sqlite, id: string, release: string): void {
  sqlite.prepare(`UPDATE registry_snapshots SET release_id = ? WHERE id = ?`).run(release, id);
}

/** Makes a kept (retired) snapshot the active one again, atomically: a rollback without a copy. */
export function reactivateSnapshot(sqlite: Sqlite, id: string): void {
  sqlite
    .transaction(() => {
      const r = sqlite.prepare(`SELECT status FROM registry_snapshots WHERE id = ?`).get(id) as
        { status: string } | undefined;
      if (r?.status !== 'retired') throw new Error(`snapshot ${id} is ${r ? r.status : 'unknown'}, not a kept one`);
      sqlite.prepare(`UPDATE registry_snapshots SET status = 'retired' WHERE status = 'active'`).run();
      sqlite.prepare(`UPDATE registry_snapshots SET status = 'active' WHERE id = ?`).run(id);
    })
    .immediate();
}
