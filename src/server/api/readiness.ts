// GET /readyz: whether this node can answer lookups now, for a load balancer or an orchestrator
// choosing where to send traffic. /healthz only says the process is up; a node without a
// snapshot, whose app.db does not answer, or (fleet mode) that cannot reach the shared
// PostgreSQL, is alive but must not get traffic.
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { appDbAnswers } from '../../storage/app-db.ts';
import { sendError, sendJson } from './errors.ts';

export const READYZ_ROUTE = '/readyz';

export interface ReadinessDeps {
  reader: CompanyRegistry;
  /** app.db answers a trivial query (default: appDbAnswers on a fresh connection). */
  appDb: () => boolean;
  /** Fleet mode: the shared PostgreSQL answers (SharedDbProbe). */
  sharedDb?: () => boolean | Promise<boolean>;
}

type Reason = 'no_snapshot' | 'app_db' | 'shared_db';

/** Why this node is not ready, or null when it is; checked in the order a fix would follow. */
export function notReadyReason(deps: ReadinessDeps): Reason | null | Promise<Reason | null> {
  if (!deps.appDb()) return 'app_db';
  const local = () => (deps.reader.info ? null : 'no_snapshot');
  const shared = deps.sharedDb?.();
  if (shared === undefined) return local();
  if (shared instanceof Promise) return shared.then((ok) => (ok ? local() : 'shared_db'));
  return shared ? local() : 'shared_db';
}

export function readyzHandler(deps: ReadinessDeps) {
  // The reason is for the operator (the status and the metrics); the client gets the table's sentence.
  const send = (res: ServerResponse, reason: Reason | null) => {
    if (reason !== null) return sendError(res, 'not_ready', { 'Cache-Control': 'no-store' });
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
 * Fleet mode's readiness check of the shared PostgreSQL: `SELECT 1` within `timeoutMs`, its answer
 * kept for `cacheMs` (a probe flood from several balancers costs one query a second), and one
 * check at a time (concurrent probes share it).
 */
export class SharedDbProbe {
  private last: { ok: boolean; at: number } | null = null;
  private running: Promise<boolean> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly timeoutMs = 1000,
    private readonly cacheMs = 1000,
  ) {}

  check = (): boolean | Promise<boolean> => {
    if (this.last && performance.now() - this.last.at < this.cacheMs) return this.last.ok;
    this.running ??= this.query().then((ok) => {
      this.last = { ok, at: performance.now() };
      this.running = null;
      return ok;
    });
    return this.running;
  };

  private async query(): Promise<boolean> {
    // query_timeout bounds a server that accepts the connection and then hangs; the pool's
    // connection timeout bounds one that never accepts it.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    const probe = this.pool.query({ text: 'SELECT 1', query_timeout: this.timeoutMs } as pg.QueryConfig).then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
