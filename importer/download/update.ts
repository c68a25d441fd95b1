// `cnpj-api update`: newest month on the source not yet imported → download → import → clean up.
// Each month is a full snapshot (not a delta), so only the newest one matters. A month missing
// standard zips is refused by default: importing a half-published folder would then count as
// "imported" and the rest would never be fetched.
import fs from 'node:fs';
import path from 'node:path';
import { dataPaths } from '../../src/lib/config.ts';
import { openAppDb } from '../../src/storage/app/sqlite.ts';
import { listSnapshots } from '../../src/storage/snapshots/records.ts';
import { acquireLock } from '../../src/lib/pid-lock.ts';
import { downloadWith } from './month.ts';
import type { DownloadOptions, DownloadSummary } from './options.ts';
import { resolveMonth } from './plan.ts';
import { openSession, remoteCtx } from './session.ts';

export interface UpdateOptions extends Omit<DownloadOptions, 'month' | 'out'> {
  keepDownloads?: boolean;
  /** Download and import a month lacking some of the 37 standard zips; the import's own completeness checks still apply. */
  allowPartial?: boolean;
  /** Imports a downloaded folder (the CLI passes importer/run.ts's runImport). */
  importMonth: (dir: string, month: string) => Promise<{ snapshotId: string; month: string }>;
}

export type UpdateResult =
  | { status: 'up-to-date'; month: string; seconds: number }
  | {
      status: 'updated';
      month: string;
      snapshotId: string;
      previous: string | null;
      download: DownloadSummary;
      importSeconds: number;
      seconds: number;
      downloadsKept: boolean;
    };

/** Months already imported, whatever became of the snapshot later (retired or pruned). */
export async function importedMonths(dataDir: string): Promise<string[]> {
  const app = await openAppDb(dataDir);
  try {
    return [...new Set(listSnapshots(app.sqlite, dataPaths(dataDir).registryDir).map((s) => s.month))].sort();
  } finally {
    await app.close();
  }
}

export async function runUpdate(opts: UpdateOptions): Promise<UpdateResult> {
  const t0 = performance.now();
  const seconds = () => (performance.now() - t0) / 1000;
  const downloads = path.join(opts.dataDir, 'downloads');
  fs.mkdirSync(downloads, { recursive: true });
  const release = acquireLock(path.join(downloads, '.update.lock'), 'cnpj-api update');
  const session = openSession(opts);
  try {
    const latest = await resolveMonth(session.source, 'latest', remoteCtx(session, session.log));
    const imported = await importedMonths(opts.dataDir);
    const newest = imported[imported.length - 1];
    if (newest !== undefined && newest >= latest) return { status: 'up-to-date', month: newest, seconds: seconds() };

    const download = await downloadWith(session, { ...opts, month: latest, requireComplete: !opts.allowPartial });
    const ti = performance.now();
    const r = await opts.importMonth(download.dir, latest);
    const importSeconds = (performance.now() - ti) / 1000;
    // A failed import keeps the zips (the throw skips this), so a rerun does not download again.
    if (!opts.keepDownloads) fs.rmSync(download.dir, { recursive: true, force: true });
    return {
      status: 'updated',
      month: r.month,
      snapshotId: r.snapshotId,
      previous: newest ?? null,
      download,
      importSeconds,
      seconds: seconds(),
      downloadsKept: !!opts.keepDownloads,
    };
  } finally {
    await session.close();
    release();
  }
}
