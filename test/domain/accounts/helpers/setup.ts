// Real app.db files in a temp dir, and a clock the test moves by hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openAppDb, type AppDb } from '../../../../src/storage/app/sqlite.ts';

export interface TestDb {
  app: AppDb;
  dir: string;
  cleanup(): Promise<void>;
}

export async function tempAppDb(): Promise<TestDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-accounts-'));
  const app = await openAppDb(dir);
  return {
    app,
    dir,
    async cleanup() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock fixed at `iso` until moved with set(). */
export function manualClock(iso: string) {
  let t = new Date(iso);
  const now = () => new Date(t.getTime());
  return Object.assign(now, {
    set(next: string) {
      t = new Date(next);
    },
  });
}
