// `serve --follow SOURCE --trust KEY` in fleet mode: the node follows the fleet's release in the
// shared PostgreSQL (storage/app/fleet-release.ts) rather than the source's latest.json, and switches
// when the rest of the fleet does.
//
//   1. It learns of a new target at once (LISTEN/NOTIFY; a poll every few seconds covers a lost
//      notification connection) and runs `release pull --release ID --hold` as a child: the child
//      fetches and verifies, prints "staged" and waits, holding everything it needs open.
//   2. It reports the release as staged in its row of fleet_nodes.
//   3. When every live follower has staged it, or the target's --switch-after has passed, the first
//      node to notice fixes the switch time (the database's now() + SWITCH_DELAY_MS); every node
//      reads that time back, converts it to its own clock (the offset to the database's clock is
//      measured on each read), and at that moment tells its child to switch. The child's switch is
//      the pull's: history months merged, then one rename and one app.db row; the server swaps
//      handles between two requests (refreshRegistry: no wait for the next poll).
//   4. A node with nothing served switches as soon as it has staged (it is out of rotation anyway);
//      one that staged after the switch time switches at once: it was behind, and /readyz said so.
//
// The database or the source being unreachable stops nothing being served: the follower logs it
// once and tries again; the child keeps its verified chunks for the next attempt.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { VERSION } from '../lib/version.ts';
import { dataPaths } from '../lib/config.ts';
import { openAppSqlite } from '../storage/app/sqlite.ts';
import { openAppPostgres, type AppPostgres } from '../storage/app/postgres.ts';
import type { AppDatabase } from '../storage/app/schema.ts';
import {
  claimSwitch,
  listenForFleetChanges,
  liveFollowers,
  readFleetTarget,
  recordFollowerBeat,
  type FleetListener,
  type FleetTarget,
} from '../storage/app/fleet-release.ts';
import { nodeIdentity } from '../storage/app/fleet-nodes.ts';
import { activeSnapshot } from '../storage/snapshots/records.ts';
import type { Sqlite } from '../storage/sqlite.ts';
import { newFollowState, type Follower, type FollowState } from './follow-state.ts';
import { pullFailure, spawnPull, stateSaver } from './pull-child.ts';

/** From the moment the fleet is ready to the switch: every node's follower hears of it well before. */
export const SWITCH_DELAY_MS = 1500;
/** Polls of the fleet's target besides the notifications. */
export const FLEET_POLL_MS = 5000;

export interface FleetFollowOptions {
  dataDir: string;
  databaseUrl: string;
  source: string;
  trust: string[];
  pollMs?: number;
  log?: (line: string) => void;
  /** Extra arguments for the pull (tests: fewer retries). */
  pullArgs?: string[];
  /** Called right after this node switched (the server reads its pointer now). */
  onSwitched?: () => void;
}

interface Stage {
  release: string;
  child: ChildProcess;
  staged: boolean;
  /** The word to switch was given. */
  switching: boolean;
  done: Promise<void>;
}

export function startFleetFollower(opts: FleetFollowOptions): Follower {
  const log = opts.log ?? ((l) => process.stderr.write(`${l}\n`));
  const pollMs = opts.pollMs ?? FLEET_POLL_MS;
  const node = nodeIdentity(opts.dataDir, VERSION);
  const state: FollowState = {
    ...newFollowState(opts.source, opts.trust, pollMs),
    fleet: { target: null, staged: null, switchAt: null },
  };
  const save = stateSaver(opts.dataDir, state, log);
  save();

  let stopped = false;
  let pgStore: AppPostgres | null = null;
  let listener: FleetListener | null = null;
  let pointer: Sqlite | null = null;
  let stage: Stage | null = null;
  /** The database's clock minus ours, in ms, from the last read. */
  let offsetMs = 0;
  let switchTimer: NodeJS.Timeout | null = null;
  let failing: string | null = null;
  let retryAt = 0;
  let failures = 0;
  let reportedStaged: string | null | undefined;

  const problem = (kind: 'database' | 'report' | 'round', what: string) => {
    // Once per kind of trouble: an outage's message changes as it goes on (shutting down, refused).
    if (failing !== kind) log(`follow: ${what}; still serving the current month, trying again`);
    failing = kind;
  };

  const served = (): { release: string | null; month: string | null } => {
    if (!fs.existsSync(dataPaths(opts.dataDir).appDb)) return { release: null, month: null };
    pointer ??= openAppSqlite(opts.dataDir, 'reader');
    const a = activeSnapshot(pointer, dataPaths(opts.dataDir).registryDir);
    return { release: a?.release ?? null, month: a?.month ?? null };
  };

  const connect = async (): Promise<Kysely<AppDatabase>> => {
    if (!pgStore) pgStore = await openAppPostgres(opts.databaseUrl, { maxConnections: 2 });
    if (!listener?.live) listener = await listenForFleetChanges(opts.databaseUrl, () => void check());
    return pgStore.db;
  };

  const readTarget = async (db: Kysely<AppDatabase>): Promise<FleetTarget | null> => {
    const t0 = Date.now();
    const t = await readFleetTarget(db);
    const t1 = Date.now();
    if (t) offsetMs = t.dbNow.getTime() - (t0 + t1) / 2;
    return t;
  };

  const startStage = (release: string) => {
    const args = ['--from', opts.source, '--data-dir', opts.dataDir, '--release', release];
    args.push('--hold', '--json', '--allow-older');
    for (const t of state.trust) args.push('--trust', t);
    args.push(...(opts.pullArgs ?? []));
    const s: Stage = { release, child: null!, staged: false, switching: false, done: Promise.resolve() };
    const onResult = (l: string) => {
      let msg: { status?: string; month?: string };
      try {
        msg = JSON.parse(l) as typeof msg;
      } catch {
        return;
      }
      if (msg.status === 'staged') {
        s.staged = true;
        log(`follow: release ${release} (month ${msg.month}) is staged: switching when the fleet does`);
        void check();
      } else if (msg.status === 'pulled' || msg.status === 'current') {
        state.lastResult = msg.status;
        state.lastRelease = release;
        // Saved now, not when the pull exits: the server may serve the release (its registry
        // polls the pointer) before then, and follow.json must not say otherwise meanwhile.
        save();
        if (msg.status === 'pulled') log(`follow: now serving release ${release} (month ${msg.month})`);
      }
    };
    const p = spawnPull(args, { log, onResult, stdin: 'pipe' });
    s.child = p.child;
    s.done = new Promise<void>((resolve) => {
      p.child.on('close', (code, signal) => {
        if (stage === s) stage = null;
        state.pulling = false;
        state.lastCheckAt = new Date().toISOString();
        if (code === 0) {
          failures = 0;
          state.lastError = null;
          opts.onSwitched?.();
        } else if (!stopped && signal !== 'SIGTERM') {
          failures++;
          // Backoff doubling from the poll interval up to 8 times it (40 s by default).
          retryAt = Date.now() + pollMs * 2 ** Math.min(failures - 1, 3);
          const why = pullFailure(p, code, signal);
          state.lastResult = 'failed';
          state.lastError = why;
          log(
            `follow: pull of release ${release} from ${opts.source} failed (${why}); still serving the current month`,
          );
        }
        save();
        resolve();
        void check();
      });
    });
    stage = s;
    state.pulling = true;
    save();
  };

  const cancelStage = async () => {
    const s = stage;
    if (!s) return;
    stage = null;
    // Its verified chunks stay on disk only for the same release; another target starts afresh.
    if (!s.switching) s.child.kill('SIGTERM');
    await s.done;
  };

  const goSwitch = (s: Stage) => {
    if (s.switching || stage !== s) return;
    s.switching = true;
    if (switchTimer) clearTimeout(switchTimer);
    switchTimer = null;
    s.child.stdin!.end('switch\n');
  };

  const round = async () => {
    if (stopped) return;
    let db: Kysely<AppDatabase>;
    let target: FleetTarget | null;
    try {
      db = await connect();
      target = await readTarget(db);
    } catch (err) {
      const e = err as Error & { code?: string };
      problem('database', `the fleet's database does not answer (${e.message || e.code})`);
      save();
      return;
    }
    if (failing === 'database' || failing === 'report') {
      log('follow: the fleet database answers again');
      failing = null;
    }
    const here = served();
    state.fleet = {
      target: target?.release ?? null,
      staged: stage?.staged ? stage.release : here.release === target?.release ? here.release : null,
      switchAt: target?.switchAt?.toISOString() ?? null,
    };
    state.lastCheckAt = new Date().toISOString();
    if (!target) {
      await beat(db, null);
      save();
      return;
    }
    if (here.release === target.release) {
      if (stage && !stage.switching) await cancelStage();
      await beat(db, target.release);
      save();
      // Every node came to it without a switch (empty nodes switch at once): the time is fixed
      // all the same, so that the fleet's state reads "switched" and late nodes count as behind.
      if (target.switchAt === null && (await fleetReady(db, target)).ready) await claimSwitch(db, target.generation, 0);
      return;
    }
    if (stage && stage.release !== target.release && !stage.switching) await cancelStage();
    if (!stage) {
      if (Date.now() < retryAt) {
        await beat(db, null);
        return;
      }
      log(
        `follow: the fleet targets release ${target.release} (month ${target.month}): pulling it from ${opts.source}`,
      );
      startStage(target.release);
      await beat(db, null);
      return;
    }
    if (!stage.staged || stage.switching) {
      await beat(db, null);
      return;
    }
    await beat(db, target.release);
    save();
    // Nothing served: nothing to keep in step with.
    if (here.release === null && here.month === null) return goSwitch(stage);
    let switchAt = target.switchAt;
    if (switchAt === null) {
      const { ready, waiting } = await fleetReady(db, target);
      const expired = target.dbNow.getTime() >= target.setAt.getTime() + target.switchAfterSeconds * 1000;
      if (ready || expired) {
        switchAt = await claimSwitch(db, target.generation, SWITCH_DELAY_MS);
        if (switchAt && expired && !ready) {
          log(
            `follow: switching without ${waiting.map((f) => f.id).join(', ')} (the release's --switch-after of ${target.switchAfterSeconds} s has passed)`,
          );
        }
      }
    }
    if (switchAt === null) return;
    state.fleet.switchAt = switchAt.toISOString();
    const wait = switchAt.getTime() - offsetMs - Date.now();
    if (wait <= 0) return goSwitch(stage);
    if (switchTimer) clearTimeout(switchTimer);
    const s = stage;
    switchTimer = setTimeout(() => goSwitch(s), wait);
  };

  /** Every live follower has staged the target or serves it; who has not. */
  const fleetReady = async (db: Kysely<AppDatabase>, target: FleetTarget) => {
    const waiting = (await liveFollowers(db)).filter(
      (f) => f.staged !== target.release && f.release !== target.release,
    );
    return { ready: waiting.length === 0, waiting };
  };

  const beat = async (db: Kysely<AppDatabase>, staged: string | null) => {
    try {
      const announce = staged !== reportedStaged;
      if (await recordFollowerBeat(db, node.id, served(), staged, state.lastError, announce)) reportedStaged = staged;
    } catch (err) {
      problem('report', `cannot report to the fleet's database (${(err as Error).message})`);
    }
  };

  let running: Promise<void> | null = null;
  let again = false;
  const check = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await round();
        } catch (err) {
          problem('round', `fleet follow failed (${(err as Error).message})`);
        }
      } while (again && !stopped);
    })().finally(() => (running = null));
    return running;
  };
  void check();
  const timer = setInterval(() => void check(), pollMs);
  timer.unref();

  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (switchTimer) clearTimeout(switchTimer);
      await running;
      // A staged pull keeps its verified files for the next start; one switching finishes.
      const s = stage;
      if (s && !s.switching) s.child.kill('SIGTERM');
      await s?.done;
      await listener?.close();
      await pgStore?.close();
      pointer?.close();
    },
  };
}
