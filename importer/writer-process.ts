// The child-process side of a snapshot writer: receives a WriterJob over IPC, reports progress,
// and exits when done. If the parent dies (IPC disconnects) it exits at once: the parent's next
// run removes the half-built snapshot.
import { writeSnapshotPart, type WriterJob } from './writer.ts';

export type WriterMessage =
  | { type: 'progress'; compressedBytes: number; rows: number; current: string }
  | { type: 'done'; result: Awaited<ReturnType<typeof writeSnapshotPart>> }
  | { type: 'error'; message: string; code?: string };

export function runWriterProcess(): void {
  if (!process.send) throw new Error('the import writer must be started by `cnpj-api import`');
  const send = (m: WriterMessage) => process.send!(m);
  process.on('disconnect', () => process.exit(3));
  // The job's failure is reported to the parent: nothing is left to reject.
  process.once('message', (job: WriterJob) => void write(job, send));
}

async function write(job: WriterJob, send: (m: WriterMessage) => void): Promise<void> {
  try {
    const result = await writeSnapshotPart(job, (p) => send({ type: 'progress', ...p }));
    send({ type: 'done', result });
    process.disconnect();
  } catch (err) {
    const e = err as Error & { code?: string };
    send({ type: 'error', message: e.message, code: e.code });
    process.disconnect();
    process.exitCode = 1;
  }
}
