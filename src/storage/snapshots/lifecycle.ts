// The life of a snapshot directory: built under `.building-<id>` (with a lock naming the
// importer's pid), published by one rename plus one row in app.db, retired old ones removed.
// A killed import leaves only a `.building-*` folder, which the next import removes.
import fs from 'node:fs';
import path from 'node:path';
import type { Sqlite } from '../sqlite.ts';
import { acquireLock, lockHolder } from '../../lib/pid-lock.ts';
import { listSnapshots, markDeleted, recordPublished, type SnapshotStats } from './records.ts';

const BUILDING_PREFIX = '.building-';
const LOCK = 'importer.pid';

/**
 * `<month>_<UTC stamp to the second>`, with `-2`, `-3`… when an import of the same second exists.
 * `removed` names the build folders this import just cleaned away: their ids stay taken, because
 * a killed importer's writer processes may still be starting and would open their files by the
 * old path, inside a new build of the same name.
 */
export function newSnapshotId(
  registryDir: string,
  month: string,
  now = new Date(),
  removed: readonly string[] = [],
): string {
  const base = `${month}_${now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
  const taken = (id: string) =>
    removed.includes(BUILDING_PREFIX + id) ||
    fs.existsSync(path.join(registryDir, id)) ||
    fs.existsSync(path.join(registryDir, BUILDING_PREFIX + id));
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return id;
}

/** Removes half-built snapshots whose importer is gone. Refuses when another import is running. */
export function cleanStaleBuilds(registryDir: string): string[] {
  const removed: string[] = [];
  if (!fs.existsSync(registryDir)) return removed;
  for (const name of fs.readdirSync(registryDir)) {
    if (!name.startsWith(BUILDING_PREFIX)) continue;
    const dir = path.join(registryDir, name);
    // No lock: a build that died before writing it.
    const pid = lockHolder(path.join(dir, LOCK));
    if (pid !== null) {
      throw new Error(`another import (pid ${pid}) is running in ${registryDir}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

export function startBuild(registryDir: string, id: string): string {
  fs.mkdirSync(registryDir, { recursive: true });
  const dir = path.join(registryDir, BUILDING_PREFIX + id);
  fs.mkdirSync(dir);
  // Released by publish() (the lock is removed before the rename) or with the folder.
  acquireLock(path.join(dir, LOCK), 'import');
  return dir;
}

export function abandonBuild(buildDir: string): void {
  fs.rmSync(buildDir, { recursive: true, force: true });
}

/**
 * Refuses to start when the disk cannot hold the snapshot. A full month's snapshot is over three
 * times its zips (docs/benchmarks.md), so 4× the compressed input plus 256 MB of slack is asked
 * for.
 */
export function checkFreeSpace(registryDir: string, compressedBytes: number): void {
  fs.mkdirSync(registryDir, { recursive: true });
  const st = fs.statfsSync(registryDir);
  const free = st.bavail * st.bsize;
  const need = compressedBytes * 4 + 256 * 2 ** 20;
  if (free < need) {
    const gb = (n: number) => (n / 1e9).toFixed(1);
    throw new Error(
      `not enough disk space in ${registryDir}: ${gb(free)} GB free, the import needs about ${gb(need)} GB (--skip-space-check to try anyway)`,
    );
  }
}

/** Renames the build into place and points app.db at it, in that order: a crash between the two leaves the old snapshot active. */
export function publish(
  sqlite: Sqlite,
  registryDir: string,
  buildDir: string,
  s: { id: string; month: string; importedAt: string; stats: SnapshotStats; release?: string },
): string {
  fs.rmSync(path.join(buildDir, LOCK), { force: true });
  const finalDir = path.join(registryDir, s.id);
  fs.renameSync(buildDir, finalDir);
  try {
    recordPublished(sqlite, { ...s, dir: s.id });
  } catch (e) {
    fs.rmSync(finalDir, { recursive: true, force: true });
    throw e;
  }
  return finalDir;
}

/**
 * Keeps the newest `keep` snapshots (the active one and the previous, by default) and deletes the
 * files of older ones. A server still reading a deleted file keeps its open handle (POSIX unlink).
 */
export function pruneSnapshots(sqlite: Sqlite, registryDir: string, keep: number): string[] {
  const removed: string[] = [];
  const live = listSnapshots(sqlite, registryDir).filter((s) => s.status !== 'deleted');
  for (const s of live.slice(Math.max(keep, 1))) {
    if (s.status === 'active') continue;
    fs.rmSync(s.dir, { recursive: true, force: true });
    markDeleted(sqlite, s.id);
    removed.push(s.id);
  }
  return removed;
}

export function dirBytes(dir: string): number {
  let total = 0;
  for (const name of fs.readdirSync(dir)) total += fs.statSync(path.join(dir, name)).size;
  return total;
}
