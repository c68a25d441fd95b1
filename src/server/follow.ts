// `serve --follow SOURCE --trust KEY`: checks the source on a timer and, when it names a release
// this node does not serve, runs `cnpj-api release pull` as a child process (its hashing and
// writing stay off the server's event loop; a crash of the pull is not a crash of the server).
// The pull publishes through app.db's pointer, which the server's registry reader already polls,
// so the switch is the import's: new handles opened beside the old, swapped between two requests.
// What the follower last did is kept in `<data>/follow.json` for `cnpj-api status`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { selfCommand } from '../lib/runtime.ts';

export interface FollowOptions {
  dataDir: string;
  source: string;
  /** Public key files (release.pub). */
  trust: string[];
  intervalMs: number;
  log?: (line: string) => void;
  /** Extra arguments for the pull (tests: fewer retries). */
  pullArgs?: string[];
}

export interface FollowState {
  source: string;
  trust: string[];
  intervalMs: number;
  pid: number;
  startedAt: string;
  lastCheckAt: string | null;
  /** What the last check ended with: `current`, `pulled`, `failed`. */
  lastResult: string | null;
  lastRelease: string | null;
  lastError: string | null;
  /** A pull is running now. */
  pulling: boolean;
  /** Fleet mode (fleet-follow.ts): the fleet's release, the one staged here, and when they switch. */
  fleet?: { target: string | null; staged: string | null; switchAt: string | null };
}

export const FOLLOW_STATE_FILE = 'follow.json';

export function readFollowState(dataDir: string): FollowState | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, FOLLOW_STATE_FILE), 'utf8')) as FollowState;
  } catch {
    return null;
  }
}

export interface Follower {
  /** Runs one check now (unless one is running) and resolves when it ends. */
  check(): Promise<void>;
  stop(): Promise<void>;
}

export function startFollower(opts: FollowOptions): Follower {
  const log = opts.log ?? ((l) => process.stderr.write(`${l}\n`));
  const stateFile = path.join(opts.dataDir, FOLLOW_STATE_FILE);
  const state: FollowState = {
    source: opts.source,
    trust: opts.trust.map((t) => path.resolve(t)),
    intervalMs: opts.intervalMs,
    pid: process.pid,
    startedAt: new Date().toISOString(),
    lastCheckAt: null,
    lastResult: null,
    lastRelease: null,
    lastError: null,
    pulling: false,
  };
  const save = () => {
    try {
      fs.mkdirSync(opts.dataDir, { recursive: true });
      fs.writeFileSync(`${stateFile}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
      fs.renameSync(`${stateFile}.tmp`, stateFile);
    } catch (err) {
      log(`follow: cannot write ${stateFile}: ${(err as Error).message}`);
    }
  };
  save();

  let running: Promise<void> | null = null;
  let child: ReturnType<typeof spawn> | null = null;
  let stopped = false;

  const runPull = () =>
    new Promise<void>((resolve) => {
      const args = ['release', 'pull', '--from', opts.source, '--data-dir', opts.dataDir, '--json'];
      for (const t of state.trust) args.push('--trust', t);
      args.push(...(opts.pullArgs ?? []));
      const cmd = selfCommand(args);
      state.pulling = true;
      save();
      const c = spawn(cmd.command, cmd.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      let out = '';
      let err = '';
      let lastLine = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        // The pull's progress lines, as the server's own.
        const lines = err.split('\n');
        err = lines.pop() ?? '';
        for (const l of lines)
          if (l.trim()) {
            log(`follow: ${l}`);
            lastLine = l;
          }
      });
      c.on('close', (code) => {
        child = null;
        state.pulling = false;
        state.lastCheckAt = new Date().toISOString();
        if (code === 0) {
          try {
            const r = JSON.parse(out) as { status: string; release: string; month: string };
            state.lastResult = r.status;
            state.lastRelease = r.release;
            state.lastError = null;
            if (r.status === 'pulled') log(`follow: now serving release ${r.release} (month ${r.month})`);
          } catch {
            state.lastResult = 'failed';
            state.lastError = 'the pull printed no result';
          }
        } else {
          state.lastResult = 'failed';
          const why = (err.trim() || lastLine || `exit ${code}`).replace(/^(cnpj-api|error): /, '');
          state.lastError = why;
          log(
            `follow: pull from ${opts.source} failed (${why}); still serving the current month, next try in ${Math.round(opts.intervalMs / 1000)} s`,
          );
        }
        save();
        resolve();
      });
    });

  const check = () => {
    if (stopped) return Promise.resolve();
    running ??= runPull().finally(() => (running = null));
    return running;
  };
  void check();
  const timer = setInterval(() => void check(), opts.intervalMs);
  timer.unref();
  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      // The pull leaves the served month untouched whenever it is stopped; the next one resumes.
      child?.kill('SIGTERM');
      await running;
    },
  };
}
