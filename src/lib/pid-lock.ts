// Pid lock files: a file holding the pid of the process that owns some work (a download into a
// folder, an update run, a snapshot being built). One left by a process that is gone is stale.
import fs from 'node:fs';

/** Whether a process with this pid exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the live process, other than this one, that holds the lock `file`; else null. */
export function lockHolder(file: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null; // no lock (or gone meanwhile)
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid) ? pid : null;
}

/**
 * Takes the lock (creating `file` with this pid) or throws a one-sentence error naming the
 * holder; a stale lock is taken over. Returns the release function.
 */
export function acquireLock(file: string, what: string): () => void {
  for (let i = 0; i < 2; i++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = lockHolder(file);
      if (pid !== null) throw new Error(`Another ${what} is running (pid ${pid}, lock file ${file}).`, { cause: err });
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock file ${file}.`);
}
