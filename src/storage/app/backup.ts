// `cnpj-api backup`: consistent copies of the two files that cannot be rebuilt, app.db and
// history.db (old snapshots are pruned, so a month's differences cannot be computed again), while
// servers and imports keep writing to them. SQLite's online backup copies the pages of one read
// snapshot (in WAL mode readers and writers do not block each other), so each copy is a database
// as it was at one commit, never a torn file.
import fs from 'node:fs';
import path from 'node:path';
import { fsyncPath } from '../fs-sync.ts';
import { dataPaths } from '../../lib/config.ts';
import { openAppSqlite } from './sqlite.ts';
import { openSqlite, type Sqlite } from '../sqlite.ts';

export interface BackupResult {
  file: string;
  bytes: number;
}

/** history.db's copy beside app.db's: `app-2026-11-20.db` → `app-2026-11-20.history.db`. */
export function historyBackupFile(file: string): string {
  return `${file.replace(/\.db$/, '')}.history.db`;
}

/**
 * Copies `<dataDir>/app.db` to `file` and, when there is one, `<dataDir>/history.db` to
 * historyBackupFile(file). Refused when either target exists, unless `force`.
 */
export async function backupDataDir(
  dataDir: string,
  file: string,
  opts: { force?: boolean } = {},
): Promise<{ app: BackupResult; history: BackupResult | null }> {
  const paths = dataPaths(dataDir);
  const historyFile = historyBackupFile(file);
  const withHistory = fs.existsSync(paths.historyDb);
  if (!fs.existsSync(paths.appDb)) throw new Error(`no app.db in ${dataDir}: nothing to back up`);
  // Both targets checked first: no half-done backup because the second name was taken.
  checkTarget(paths.appDb, file, opts);
  if (withHistory) checkTarget(paths.historyDb, historyFile, opts);
  if (path.resolve(file) === path.resolve(paths.historyDb))
    throw new Error('the backup cannot replace history.db itself');
  // app.db: every page in one step after the first. A step-wise copy restarts whenever a server
  // commits in between, which on a busy API could be forever. app.db is small.
  const app = await copyDatabase(() => openAppSqlite(dataDir), file, opts, 'integrity_check');
  let history: BackupResult | null = null;
  if (withHistory) {
    // history.db: written once a month by an import; quick_check, as a full integrity check of
    // GBs of history would re-read every index for minutes.
    history = await copyDatabase(
      () => {
        const db = openSqlite(paths.historyDb, { readonly: true, fileMustExist: true });
        db.pragma('busy_timeout = 10000');
        return db;
      },
      historyFile,
      opts,
      'quick_check',
    );
  }
  return { app, history };
}

function checkTarget(source: string, file: string, opts: { force?: boolean }): void {
  const target = path.resolve(file);
  if (target === path.resolve(source)) throw new Error(`the backup cannot replace ${path.basename(source)} itself`);
  const existing = fs.statSync(target, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new Error(`${file} is a folder; give the backup's file name`);
  if (existing && !opts.force) throw new Error(`${file} already exists; pass --force to replace it`);
  if (!fs.statSync(path.dirname(target), { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`folder ${path.dirname(file)} does not exist`);
}

async function copyDatabase(
  open: () => Sqlite,
  file: string,
  opts: { force?: boolean },
  check: 'integrity_check' | 'quick_check',
): Promise<BackupResult> {
  const target = path.resolve(file);
  // Written under a temp name and renamed, so `file` is never a half-written backup.
  const tmp = `${target}.${process.pid}.tmp`;
  const removeTmp = () => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(tmp + suffix, { force: true });
  };
  try {
    const db = open();
    try {
      await db.backup(tmp, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    const copy = openSqlite(tmp, { fileMustExist: true });
    try {
      // One self-contained file (no -wal beside it) that any sqlite3 can open read-only; the
      // programs switch it back to WAL when they open it after a restore.
      copy.pragma('journal_mode = DELETE');
      const result = copy.pragma(check, { simple: true });
      if (result !== 'ok') throw new Error(`the copy failed its ${check} (${String(result)})`);
    } finally {
      copy.close();
    }
    await fsyncPath(tmp);
    if (opts.force) fs.renameSync(tmp, target);
    else {
      // link() refuses an existing name, so a file that appeared meanwhile is not overwritten.
      fs.linkSync(tmp, target);
      fs.rmSync(tmp);
    }
    await fsyncPath(path.dirname(target), 'r');
  } catch (err) {
    removeTmp();
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new Error(`${file} already exists; pass --force to replace it`, { cause: err });
    throw err;
  }
  return { file: target, bytes: fs.statSync(target).size };
}
