// GET /readyz: whether this node can answer lookups now, for a load balancer or an orchestrator
// choosing where to send traffic. /healthz only says the process is up; a node without a
// snapshot, whose app.db does not answer, or (fleet mode) that cannot reach the shared
// PostgreSQL, is alive but must not get traffic.
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { appDbAnswers } from '../../storage/app/sqlite.ts';
import { SWITCH_GRACE_SECONDS } from '../../storage/app/fleet-nodes.ts';
import { ERRORS } from '../../domain/api-errors.ts';
import { sendJson } from './errors.ts';

export const READYZ_ROUTE = '/readyz';

export interface ReadinessDeps {
  reader: CompanyRegistry;
  /** app.db answers a trivial query (default: appDbAnswers on a fresh connection). */
  appDb: () => boolean;
  /** Fleet mode: the shared PostgreSQL answers (SharedDbProbe). */
  sharedDb?: () => boolean | Promise<boolean>;
  /** Fleet mode: the release every node must serve once its switch is due, or null (SharedDbProbe.dueRelease). */
  fleetRelease?: () => string | null | Promise<string | null>;
}

type Reason = 'no_snapshot' | 'app_db' | 'shared_db' | 'behind_fleet';

/** Why this node is not ready, or null when it is; checked in the order a fix would follow. */
export function notReadyReason(deps: ReadinessDeps): Reason | null | Promise<Reason | null> {
  if (!deps.appDb()) return 'app_db';
  const behind = (): Reason | null | Promise<Reason | null> => {
    const want = deps.fleetRelease?.();
    const check = (release: string | null) =>
      release !== null && deps.reader.info?.release !== release ? 'behind_fleet' : null;
    return want instanceof Promise ? want.then(check) : check(want ?? null);
  };
  const local = () => (deps.reader.info ? behind() : 'no_snapshot');
  const shared = deps.sharedDb?.();
  if (shared === undefined) return local();
  if (shared instanceof Promise) return shared.then((ok) => (ok ? local() : 'shared_db'));
  return shared ? local() : 'shared_db';
}

export function readyzHandler(deps: ReadinessDeps) {
  // The reason is in the body too: a load balancer's log then says why a node left rotation.
  const send = (res: ServerResponse, reason: Reason | null) => {
    if (reason !== null) {
      const def = ERRORS.not_ready;
      return sendJson(
        res,
        def.status,
        { error: def.error, message: def.message, reason },
        { 'Retry-After': def.retryAfter as number, 'Cache-Control': 'no-store' },
      );
    }
    sendJson(res, 200, { status: 'ready' }, { 'Cache-Control': 'no-store' });
  };
  return (_req: unknown, res: ServerResponse) => {
    const reason = notReadyReason(deps);
    return reason instanceof Promise ? reason.then((r) => send(res, r)) : send(res, reason);
  };
}

/** The default app.db check of a server on `dataDir`. */
export const appDbCheck = (dataDir: string) => () => appDbAnswers(dataDir);

/**
 * Fleet mode's readiness check of the shared PostgreSQL: one query within `timeoutMs`, its answer
 * kept for `cacheMs` (a probe flood from several balancers costs one query a second), and one
 * check at a time (concurrent probes share it). The same query reads the fleet's release once its
 * switch is due (plus a grace for the nodes' own switch): a node serving another is behind.
 */
export class SharedDbProbe {
  private last: { ok: boolean; release: string | null; at: number } | null = null;
  private running: Promise<{ ok: boolean; release: string | null }> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly timeoutMs = 1000,
    private readonly cacheMs = 1000,
  ) {}

  private read(): { ok: boolean; release: string | null } | Promise<{ ok: boolean; release: string | null }> {
    if (this.last && performance.now() - this.last.at < this.cacheMs) return this.last;
    this.running ??= this.query().then((r) => {
      this.last = { ...r, at: performance.now() };
      this.running = null;
      return r;
    });
    return this.running;
  }

  check = (): boolean | Promise<boolean> => {
    const r = this.read();
    return r instanceof Promise ? r.then((x) => x.ok) : r.ok;
  };

  /** The fleet's release when every node should serve it by now; null: no fleet release, or not due. */
  dueRelease = (): string | null | Promise<string | null> => {
    const r = this.read();
    return r instanceof Promise ? r.then((x) => x.release) : r.release;
  };

  private async query(): Promise<{ ok: boolean; release: string | null }> {
    // query_timeout bounds a server that accepts the connection and then hangs; the pool's
    // connection timeout bounds one that never accepts it.
    let timer: NodeJS.Timeout | undefined;
    const down = { ok: false, release: null };
    const timeout = new Promise<typeof down>((resolve) => {
      timer = setTimeout(() => resolve(down), this.timeoutMs);
    });
    const probe = this.pool
      .query<{ release: string | null }>({
        text: `SELECT (SELECT release FROM fleet_target WHERE id = 1
                 AND switch_at + make_interval(secs => ${SWITCH_GRACE_SECONDS}) < now()) AS release`,
        query_timeout: this.timeoutMs,
      } as pg.QueryConfig)
      .then(
        (r) => ({ ok: true, release: r.rows[0]?.release ?? null }),
        () => down,
      );
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
