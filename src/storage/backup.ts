// `cnpj-api backup`: a consistent copy of app.db while servers keep writing to it. SQLite's
// online backup copies the pages of one read snapshot (in WAL mode readers and writers do not
// block each other), so the copy is a database as it was at one commit, never a torn file.
import fs from 'node:fs';
import path from 'node:path';
import { fsyncPath } from './fs-sync.ts';
import { dataPaths } from '../lib/config.ts';
import { openAppSqlite } from './app-db.ts';
import { openSqlite } from './sqlite.ts';

export interface BackupResult {
  file: string;
  bytes: number;
}

/** Copies `<dataDir>/app.db` to `file` (refused when it exists, unless `force`). */
export async function backupAppDb(dataDir: string, file: string, opts: { force?: boolean } = {}): Promise<BackupResult> {
  const source = path.resolve(dataPaths(dataDir).appDb);
  const target = path.resolve(file);
  if (!fs.existsSync(source)) throw new Error(`no app.db in ${dataDir}: nothing to back up`);
  if (target === source) throw new Error('the backup cannot replace app.db itself');
  const existing = fs.statSync(target, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new Error(`${file} is a folder; give the backup's file name`);
  if (existing && !opts.force) throw new Error(`${file} already exists; pass --force to replace it`);
  if (!fs.statSync(path.dirname(target), { throwIfNoEntry: false })?.isDirectory()) throw new Error(`folder ${path.dirname(file)} does not exist`);

  // Written under a temp name and renamed, so `file` is never a half-written backup.
  const tmp = `${target}.${process.pid}.tmp`;
  const removeTmp = () => {
    for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(tmp + suffix, { force: true });
  };
  try {
    const db = openAppSqlite(dataDir);
    try {
      // All remaining pages in one step after the first: a step-wise copy restarts whenever a
      // server commits in between, which on a busy API could be forever. app.db is small.
      await db.backup(tmp, { progress: () => 0x7fffffff });
    } finally {
      db.close();
    }
    const copy = openSqlite(tmp, { fileMustExist: true });
    try {
      // One self-contained file (no -wal beside it) that any sqlite3 can open read-only;
      // the server switches it back to WAL when it opens it after a restore.
      copy.pragma('journal_mode = DELETE');
      const check = copy.pragma('integrity_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed its integrity check (${String(check)})`);
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
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${file} already exists; pass --force to replace it`);
    throw err;
  }
  return { file: target, bytes: fs.statSync(target).size };
}
