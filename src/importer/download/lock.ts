// A pid lock file: two runs writing the same .part files would corrupt them (cron + a manual run).
import fs from 'node:fs';
import { processAlive } from '../../lib/runtime.ts';


/** Takes the lock or throws a one-sentence error; a lock left by a dead process is taken over. */
export function acquireLock(file: string, what: string): () => void {
  for (let i = 0; i < 2; i++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
        throw new Error(`Another ${what} is running (pid ${pid}, lock file ${file}).`);
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${file}.`);
}
