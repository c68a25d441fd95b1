// How a connection reads a snapshot: both of its files ATTACHed, read-only and immutable, and its
// search files when they are there and of this program's search version.
import fs from 'node:fs';
import path from 'node:path';
import type { Sqlite } from '../sqlite.ts';
import {
  SEARCH_FILE,
  SEARCH_SCHEMA_VERSION,
  MAX_SEARCH_PARTS,
  searchPartFile,
  searchPartSchema,
} from './search-schema.ts';
import { SNAPSHOT_FILES, type SnapshotFile } from './tables.ts';

/** Schema names under which a snapshot's files are attached to a connection. */
export const ATTACHED: Record<SnapshotFile, string> = { establishments: 'est', companies: 'reg' };

function readOnlyUri(file: string): string {
  return `file:${encodeURI(file).replace(/[?#]/g, encodeURIComponent)}?mode=ro&immutable=1`;
}

/** ATTACHes both files of a snapshot, read-only, to an open connection (under other names to attach two snapshots). */
export function attachSnapshot(sqlite: Sqlite, dir: string, names: Record<SnapshotFile, string> = ATTACHED): void {
  for (const [file, schema] of Object.entries(names) as [SnapshotFile, string][]) {
    sqlite.prepare(`ATTACH DATABASE ? AS ${schema}`).run(readOnlyUri(path.join(dir, SNAPSHOT_FILES[file])));
  }
}

export type SearchAttachment = { parts: number } | { unavailable: string };

/**
 * ATTACHes a snapshot's search files (search.db as `srch`, search-<i>.db as `srch<i>`), or none
 * of them when search.db is missing, unfinished (no version: the import failed or was killed
 * mid-build) or of another search version, or a part is missing: then only search is unavailable.
 */
export function attachSearch(sqlite: Sqlite, dir: string): SearchAttachment {
  if (!fs.existsSync(path.join(dir, SEARCH_FILE)))
    return { unavailable: 'the snapshot has no search index (re-import it to build one)' };
  const attached: string[] = [];
  const detachAll = () => {
    for (const s of attached) sqlite.exec(`DETACH DATABASE ${s}`);
  };
  try {
    sqlite.prepare(`ATTACH DATABASE ? AS ${searchPartSchema(0)}`).run(readOnlyUri(path.join(dir, SEARCH_FILE)));
    attached.push(searchPartSchema(0));
    const meta = new Map<string, string>();
    for (const r of sqlite.prepare(`SELECT key, value FROM ${searchPartSchema(0)}.meta`).all() as {
      key: string;
      value: string;
    }[])
      meta.set(r.key, r.value);
    const version = meta.get('search_version');
    if (version !== String(SEARCH_SCHEMA_VERSION)) {
      detachAll();
      return {
        unavailable: `the search index has version ${version ?? 'none'}, this server reads ${SEARCH_SCHEMA_VERSION} (re-import the month)`,
      };
    }
    const parts = Number(meta.get('parts'));
    if (!Number.isInteger(parts) || parts < 1 || parts > MAX_SEARCH_PARTS)
      throw new Error(`bad part count ${meta.get('parts')}`);
    for (let i = 1; i < parts; i++) {
      sqlite.prepare(`ATTACH DATABASE ? AS ${searchPartSchema(i)}`).run(readOnlyUri(path.join(dir, searchPartFile(i))));
      attached.push(searchPartSchema(i));
    }
    // Probe every part: a missing file attaches as an empty database and fails here.
    for (const s of attached) sqlite.prepare(`SELECT 1 FROM ${s}.est_fts_config LIMIT 1`).get();
    return { parts };
  } catch (err) {
    detachAll();
    return { unavailable: `the search index cannot be read: ${(err as Error).message}` };
  }
}
