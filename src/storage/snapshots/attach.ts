// How a connection reads a snapshot: both of its files ATTACHed, read-only and immutable.
import path from 'node:path';
import type { Sqlite } from '../sqlite.ts';
import { SNAPSHOT_FILES, type SnapshotFile } from './tables.ts';

/** Schema names under which a snapshot's files are attached to a connection. */
export const ATTACHED: Record<SnapshotFile, string> = { establishments: 'est', companies: 'reg' };

/** ATTACHes both files of a snapshot, read-only, to an open connection. */
export function attachSnapshot(sqlite: Sqlite, dir: string): void {
  for (const [file, schema] of Object.entries(ATTACHED) as [SnapshotFile, string][]) {
    const uri = `file:${encodeURI(path.join(dir, SNAPSHOT_FILES[file])).replace(/[?#]/g, encodeURIComponent)}?mode=ro&immutable=1`;
    sqlite.prepare(`ATTACH DATABASE ? AS ${schema}`).run(uri);
  }
}
