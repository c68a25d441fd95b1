// What both followers (follow.ts, fleet-follow.ts) share: `cnpj-api release pull` run as a child
// process with its output read line by line, and the follower's state file for `cnpj-api status`.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { selfCommand } from '../lib/runtime.ts';
import { FOLLOW_STATE_FILE, type FollowState } from './follow-state.ts';

export interface PullChild {
  child: ChildProcess;
  /** The last non-empty line the pull wrote on stderr (why it failed, when it did). */
  lastErrorLine(): string;
}

/** Splits a stream's chunks into whole lines. */
function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.on('data', (d: Buffer) => {
    rest += d.toString();
    const all = rest.split('\n');
    rest = all.pop() ?? '';
    for (const l of all) if (l.trim()) onLine(l);
  });
}

/**
 * Starts `cnpj-api release pull ARGS`; each stdout line goes to `onResult` (JSON with --json), each
 * stderr line (its progress) to the server's log with a `follow:` prefix. With `stdin: 'pipe'` the
 * caller can talk to it (--hold).
 */
export function spawnPull(
  args: string[],
  opts: { log: (line: string) => void; onResult?: (line: string) => void; stdin?: 'ignore' | 'pipe' },
): PullChild {
  const cmd = selfCommand(['release', 'pull', ...args]);
  const child = spawn(cmd.command, cmd.args, { stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'] });
  child.stdin?.on('error', () => {}); // a child gone before it read what was written
  let last = '';
  lines(child.stdout!, (l) => opts.onResult?.(l));
  lines(child.stderr!, (l) => {
    opts.log(`follow: ${l}`);
    last = l;
  });
  return { child, lastErrorLine: () => last };
}

/** Why a pull failed, for the log and the state file: its last error line without the program's prefix. */
export function pullFailure(p: PullChild, code: number | null, signal?: NodeJS.Signals | null): string {
  return (p.lastErrorLine() || `exit ${code ?? signal}`).replace(/^(cnpj-api|error): /, '');
}

/** Writes the follower's state atomically (temp file + rename); a failure is logged, never thrown. */
export function stateSaver(dataDir: string, state: FollowState, log: (line: string) => void): () => void {
  const file = path.join(dataDir, FOLLOW_STATE_FILE);
  return () => {
    try {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
      fs.renameSync(`${file}.tmp`, file);
    } catch (err) {
      log(`follow: cannot write ${file}: ${(err as Error).message}`);
    }
  };
}
