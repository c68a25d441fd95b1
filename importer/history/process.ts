// The child-process side of an import's history step (`cnpj-api __import-history`, started like
// the writers and the search builders): compares the month before with the snapshot being built
// and records the differences into a staging history file in the build folder (step.ts moves them
// into history.db before the publish). If the parent dies (IPC disconnects) it exits at once.
import { recordMonth } from './record.ts';
import type { ChildMessage } from '../writer-pool.ts';
import type { HistoryJob, HistoryChildResult } from './step.ts';

export type HistoryMessage = ChildMessage<HistoryChildResult, object>;

export function runHistoryProcess(): void {
  if (!process.send) throw new Error('the history step must be started by `cnpj-api import`');
  const finish = (m: HistoryMessage, code: number) =>
    process.send!(m, undefined, {}, () => {
      process.exitCode = code;
      process.disconnect();
    });
  process.on('disconnect', () => process.exit(3));
  process.once('message', (job: HistoryJob) => {
    try {
      const result = recordMonth(job.stagingDir, job.before, job.after, { part: job.part });
      finish({ type: 'done', result: { result, maxRssBytes: process.resourceUsage().maxRSS * 1024 } }, 0);
    } catch (err) {
      const e = err as Error & { code?: string };
      finish({ type: 'error', message: e.message, code: e.code }, 1);
    }
  });
}
