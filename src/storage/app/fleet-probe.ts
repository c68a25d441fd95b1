// Fleet mode's readiness check of the shared PostgreSQL: one query within `timeoutMs`, its answer
// kept for `cacheMs` (a probe flood from several balancers costs one query a second), and one
// check at a time (concurrent probes share it). The same query reads the fleet's release once its
// switch is due (plus a grace for the nodes' own switch): a node serving another is behind.
import type pg from 'pg';
import { SWITCH_GRACE_SECONDS } from './fleet-nodes.ts';

interface ProbeAnswer {
  ok: boolean;
  release: string | null;
}

export class FleetProbe {
  private last: (ProbeAnswer & { at: number }) | null = null;
  private running: Promise<ProbeAnswer> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly timeoutMs = 1000,
    private readonly cacheMs = 1000,
  ) {}

  /** Whether the shared database answers. */
  async reachable(): Promise<boolean> {
    return (await this.read()).ok;
  }

  /** The fleet's release when every node should serve it by now; null: no fleet release, or not due. */
  async dueRelease(): Promise<string | null> {
    return (await this.read()).release;
  }

  private read(): ProbeAnswer | Promise<ProbeAnswer> {
    if (this.last && performance.now() - this.last.at < this.cacheMs) return this.last;
    this.running ??= this.query().then((r) => {
      this.last = { ...r, at: performance.now() };
      this.running = null;
      return r;
    });
    return this.running;
  }

  private async query(): Promise<ProbeAnswer> {
    // query_timeout bounds a server that accepts the connection and then hangs; the pool's
    // connection timeout bounds one that never accepts it.
    let timer: NodeJS.Timeout | undefined;
    const down = { ok: false, release: null };
    const timeout = new Promise<ProbeAnswer>((resolve) => {
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
