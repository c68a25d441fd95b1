// The child-process side of a search part builder (`cnpj-api __import-search`, started by the
// import like the writers): receives a SearchPartJob over IPC, reports progress, exits when done.
// If the parent dies (IPC disconnects) it exits at once: the parent's next run removes the build.
import type { ChildMessage } from '../writer-pool.ts';
import { buildSearchPart, type SearchPartJob, type SearchPartResult, type SearchProgress } from './part.ts';

export type SearchMessage = ChildMessage<SearchPartResult, SearchProgress>;

export function runSearchProcess(): void {
  if (!process.send) throw new Error('the search builder must be started by `cnpj-api import`');
  const send = (m: SearchMessage, then?: () => void) => process.send!(m, undefined, {}, then);
  // Disconnect only once the last message is out (disconnecting with messages pending crashes
  // node's IPC: the build's last steps are synchronous).
  const finish = (m: SearchMessage, code: number) =>
    send(m, () => {
      process.exitCode = code;
      process.disconnect();
    });
  process.on('disconnect', () => process.exit(3));
  // The job's failure is reported to the parent: nothing is left to reject.
  process.once('message', (job: SearchPartJob) => void build(job, send, finish));
}

async function build(
  job: SearchPartJob,
  send: (m: SearchMessage) => void,
  finish: (m: SearchMessage, code: number) => void,
): Promise<void> {
  try {
    let last = 0;
    const result = await buildSearchPart(job, (p) => {
      const now = performance.now();
      if (p.step !== 'finishing' && now - last < 200) return;
      last = now;
      send({ type: 'progress', ...p });
    });
    finish({ type: 'done', result }, 0);
  } catch (err) {
    const e = err as Error & { code?: string };
    finish({ type: 'error', message: e.message, code: e.code }, 1);
  }
}
