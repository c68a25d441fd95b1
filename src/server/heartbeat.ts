// Fleet mode: the node's heartbeat in the shared PostgreSQL (fleet_nodes), so that
// `cnpj-api status --database-url` shows which nodes serve and which month each serves.
// Best effort: a failed beat never touches the serving, and is logged once until one succeeds.
import type { Kysely } from 'kysely';
import type { AppDatabase } from '../storage/app/schema.ts';
import { recordHeartbeat, recordStopped, type NodeIdentity } from '../storage/app/fleet-nodes.ts';
import type { LogFn } from './http/log.ts';

export const HEARTBEAT_MS = 10_000;

export interface HeartbeatOptions {
  db: Kysely<AppDatabase>;
  node: NodeIdentity;
  /** Read at each beat: the month changes when the node switches snapshots. */
  served: () => { listenUrl: string; month: string | null; release: string | null };
  log: LogFn;
  intervalMs?: number;
}

export interface Heartbeat {
  /** Ends the beats and marks the node stopped; call before the database is closed. */
  stop(): Promise<void>;
}

export function startHeartbeat(opts: HeartbeatOptions): Heartbeat {
  let failing = false;
  let inFlight: Promise<void> = Promise.resolve();
  const beat = () => {
    inFlight = recordHeartbeat(opts.db, opts.node, opts.served()).then(
      () => {
        if (failing) opts.log('fleet heartbeat: recorded again');
        failing = false;
      },
      (err: Error & { code?: string }) => {
        if (!failing)
          opts.log(
            `fleet heartbeat failed (serving goes on; retried every ${(opts.intervalMs ?? HEARTBEAT_MS) / 1000} s, logged once): ${err.message || err.code}`,
          );
        failing = true;
      },
    );
  };
  beat();
  const timer = setInterval(beat, opts.intervalMs ?? HEARTBEAT_MS);
  // The beat never keeps a process alive that is otherwise done.
  timer.unref();
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        clearInterval(timer);
        await inFlight;
        await recordStopped(opts.db, opts.node).catch(() => {});
      })();
      return stopping;
    },
  };
}
