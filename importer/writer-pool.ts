// The child processes of an import: the writers (one per snapshot file) and the search builders
// (one per search part). Each is this program started again (see lib/runtime.ts) with a hidden
// command, fed its job over IPC, and reports progress and its result back.
import { spawn, type ChildProcess } from 'node:child_process';
import { selfCommand } from '../src/lib/runtime.ts';
import type { ProgressState } from './progress-line.ts';
import type { WriterJob, WriterResult } from './writer.ts';
import type { WriterMessage } from './writer-process.ts';

/** What a child sends: progress (any payload), its result, or its failure. */
export type ChildMessage<R, P> =
  ({ type: 'progress' } & P) | { type: 'done'; result: R } | { type: 'error'; message: string; code?: string };

/**
 * Starts `command` once per job and waits for all; the first failure kills the others. The
 * children are pushed to `children` so that the caller can kill them on a signal.
 */
export function runChildren<J extends object, R, P>(
  command: string,
  jobs: J[],
  name: (job: J) => string,
  children: ChildProcess[],
  onProgress: (index: number, p: P) => void,
  onStarted?: (pids: number[]) => void,
): Promise<R[]> {
  return new Promise((resolve, reject) => {
    const results: R[] = new Array(jobs.length);
    let pending = jobs.length;
    let failed = false;
    const started: ChildProcess[] = [];
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
      reject(e);
    };
    jobs.forEach((job, i) => {
      const self = selfCommand([command]);
      const child = spawn(self.command, self.args, {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        serialization: 'advanced',
        env: childEnv(),
      });
      children.push(child);
      started.push(child);
      let done = false;
      child.on('message', (m: ChildMessage<R, P>) => {
        if (m.type === 'progress') onProgress(i, m);
        else if (m.type === 'done') {
          done = true;
          results[i] = m.result;
        } else if (m.type === 'error') fail(new Error(describeChildError(m.message, m.code)));
      });
      child.on('error', (e) => fail(e));
      child.on('exit', (code, signal) => {
        if (!done) return fail(new Error(`the ${name(job)} process exited unexpectedly (${signal ?? `code ${code}`})`));
        if (--pending === 0 && !failed) resolve(results);
      });
      child.send(job as Parameters<ChildProcess['send']>[0]);
    });
    onStarted?.(started.map((c) => c.pid!));
  });
}

/** Starts one writer process per job and waits for all; the first failure stops the others. */
export function runWriters(
  jobs: WriterJob[],
  state: ProgressState,
  children: ChildProcess[],
  onStarted?: (pids: number[]) => void,
): Promise<WriterResult[]> {
  type Progress = Omit<Extract<WriterMessage, { type: 'progress' }>, 'type'>;
  return runChildren<WriterJob, WriterResult, Progress>(
    '__import-writer',
    jobs,
    (j) => `${j.file} writer`,
    children,
    (i, p) => state.parts.set(jobs[i].file, p),
    onStarted,
  );
}

/**
 * A smaller V8 young generation for the children (8 MB semi-spaces instead of 16): the parser's
 * garbage dies young either way; measured, each writer peaks lower at the same speed (4 MB saves
 * more memory but costs CPU in scavenges; docs/benchmarks.md). Through NODE_OPTIONS so that it
 * also reaches the standalone binary, which takes no node flags on argv.
 */
function childEnv(): NodeJS.ProcessEnv {
  const options = [process.env.NODE_OPTIONS, '--max-semi-space-size=8'].filter(Boolean).join(' ');
  return { ...process.env, NODE_OPTIONS: options };
}

function describeChildError(message: string, code?: string): string {
  if (code === 'SQLITE_FULL' || /database or disk is full/i.test(message)) return 'disk full during the import';
  return message;
}
