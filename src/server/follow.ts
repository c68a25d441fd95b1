// `serve --follow SOURCE --trust KEY`: checks the source on a timer and, when it names a release
// this node does not serve, runs `cnpj-api release pull` as a child process (its hashing and
// writing stay off the server's event loop; a crash of the pull is not a crash of the server).
// The pull publishes through app.db's pointer, which the server's registry reader already polls,
// so the switch is the import's: new handles opened beside the old, swapped between two requests.
// What the follower last did is kept in `<data>/follow.json` for `cnpj-api status`.
import { newFollowState, type Follower } from './follow-state.ts';
import { pullFailure, spawnPull, stateSaver, type PullChild } from './pull-child.ts';

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

export function startFollower(opts: FollowOptions): Follower {
  const log = opts.log ?? ((l) => process.stderr.write(`${l}\n`));
  const state = newFollowState(opts.source, opts.trust, opts.intervalMs);
  const save = stateSaver(opts.dataDir, state, log);
  save();

  let running: Promise<void> | null = null;
  let pull: PullChild | null = null;
  let stopped = false;

  const runPull = () =>
    new Promise<void>((resolve) => {
      const args = ['--from', opts.source, '--data-dir', opts.dataDir, '--json'];
      for (const t of state.trust) args.push('--trust', t);
      args.push(...(opts.pullArgs ?? []));
      state.pulling = true;
      save();
      // The pull prints its result once the release is published (app.db's pointer moved), and
      // the server may serve it before the pull process exits: follow.json says so at once.
      let reported = false;
      let out = '';
      const onResult = (line: string) => {
        // The result is one indented JSON object over several lines: parsed once it is whole, at
        // its closing brace (the only line that is `}` alone).
        out += `${line}\n`;
        if (line !== '}') return;
        let r: { status: string; release: string; month: string };
        try {
          r = JSON.parse(out) as typeof r;
        } catch {
          return;
        }
        reported = true;
        state.lastResult = r.status;
        state.lastRelease = r.release;
        state.lastError = null;
        state.lastCheckAt = new Date().toISOString();
        save();
        if (r.status === 'pulled') log(`follow: now serving release ${r.release} (month ${r.month})`);
      };
      const p = (pull = spawnPull(args, { log, onResult }));
      p.child.on('close', (code) => {
        pull = null;
        state.pulling = false;
        state.lastCheckAt = new Date().toISOString();
        if (code === 0 && !reported) {
          state.lastResult = 'failed';
          state.lastError = 'the pull printed no result';
        } else if (code !== 0) {
          state.lastResult = 'failed';
          const why = pullFailure(p, code);
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
      pull?.child.kill('SIGTERM');
      await running;
    },
  };
}
