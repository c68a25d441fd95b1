// The server's Prometheus metrics (docs/metrics.md), on a registry of their own: the request
// counters and durations by route pattern, the group commit's batches, quota refusals, the served
// snapshot and the webhook queue, plus prom-client's default process metrics. The domain knows
// nothing of prom-client: it calls the AccessObserver this module hands it; the snapshot and
// queue gauges are read at scrape time, so they cost nothing between scrapes.
import type { ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AccessObserver } from '../../domain/metering/observer.ts';
import { webhookQueueDepth } from '../../domain/webhooks/queue-depth.ts';
import type { AppStore } from '../../storage/app/store.ts';

/** The route label of a request no route of the table answered (404, 405, a refusal before routing). */
export const UNMATCHED_ROUTE = 'unmatched';

const PREFIX = 'cnpj_api_';

export interface ServerMetricsDeps {
  /** The served snapshot's month ('YYYY-MM') and import time (ISO), or null when none is served. */
  snapshot: () => { month: string; importedAt: string; release?: string | null } | null;
  /** Fleet mode with --follow: the release this node has staged (fetched, verified, not yet served). */
  staged?: () => string | null;
  /** App state (app.db or the fleet's PostgreSQL), for the webhook queue depth at scrape time. */
  store: AppStore;
  now: () => Date;
}

export interface ServerMetrics {
  readonly registry: Registry;
  /** For the metering (Meter): durable batches and quota refusals. */
  readonly access: AccessObserver;
  /** Marks `res` as answered by the route of pattern `route` (set before its handler runs). */
  routed(res: ServerResponse, route: string): void;
  /** A response is done (finished or aborted) after `ms` milliseconds. */
  done(res: ServerResponse, ms: number): void;
}

/** 'YYYY-MM' as the number YYYYMM: a gauge holds numbers, and this one still sorts and reads. */
const monthNumber = (month: string) => Number(month.slice(0, 4)) * 100 + Number(month.slice(5, 7));

export function createServerMetrics(deps: ServerMetricsDeps): ServerMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by route pattern and status (status "aborted": the client left first).',
    labelNames: ['route', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time from the request to its answer being written (or the client leaving), by route pattern.',
    labelNames: ['route'] as const,
    // A lookup takes well under a millisecond: the low buckets are where the answers are.
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const batchSize = new Histogram({
    name: `${PREFIX}group_commit_batch_size`,
    help: 'Counted calls per group commit (one transaction and one WAL flush for the lot).',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    registers,
  });
  const commitSeconds = new Histogram({
    name: `${PREFIX}group_commit_duration_seconds`,
    help: "A group commit's time from BEGIN to durable (the transaction and the WAL flush); its calls wait for it.",
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers,
  });
  const refusals = new Counter({
    name: `${PREFIX}quota_refusals_total`,
    help: 'Requests (a call or a whole batch) refused with 429 quota_exceeded by the counting transaction.',
    registers,
  });
  new Gauge({
    name: `${PREFIX}snapshot_month`,
    help: 'The month of the served snapshot as YYYYMM (202611); 0 when no snapshot is served.',
    // Workers may be mid-swap: the cluster reports the oldest month still served.
    aggregator: 'min',
    registers,
    collect() {
      const info = deps.snapshot();
      this.set(info ? monthNumber(info.month) : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}snapshot_age_seconds`,
    help: 'Seconds since the served snapshot was imported (published); 0 when no snapshot is served.',
    aggregator: 'max',
    registers,
    collect() {
      const info = deps.snapshot();
      this.set(info ? Math.max(0, (deps.now().getTime() - Date.parse(info.importedAt)) / 1000) : 0);
    },
  });
  new Gauge({
    name: `${PREFIX}release_served_info`,
    help: 'Always 1, labelled with the release served (docs/releases.md); no series when the snapshot is no release.',
    labelNames: ['release'],
    aggregator: 'max',
    registers,
    collect() {
      this.reset();
      const release = deps.snapshot()?.release;
      if (release) this.set({ release }, 1);
    },
  });
  new Gauge({
    name: `${PREFIX}release_staged_info`,
    help: "Always 1, labelled with the fleet's release this node has fetched and verified (docs/fleet.md); no series when none is staged.",
    labelNames: ['release'],
    aggregator: 'max',
    registers,
    collect() {
      this.reset();
      const release = deps.staged?.();
      if (release) this.set({ release }, 1);
    },
  });
  new Gauge({
    name: `${PREFIX}webhook_queue_depth`,
    help: 'Webhook deliveries waiting to be sent (due now or retrying later), over all webhooks.',
    // Every worker (every node of a fleet) reads the same queue: the cluster's value is any one
    // of theirs, not their sum.
    aggregator: 'max',
    registers,
    async collect() {
      this.set(await webhookQueueDepth(deps.store));
    },
  });

  // Who answered each response: a request no route took keeps UNMATCHED_ROUTE.
  const routeOf = new WeakMap<ServerResponse, string>();
  return {
    registry,
    access: {
      committed(size, seconds) {
        batchSize.observe(size);
        commitSeconds.observe(seconds);
      },
      quotaRefused() {
        refusals.inc();
      },
    },
    routed(res, route) {
      routeOf.set(res, route);
    },
    done(res, ms) {
      const route = routeOf.get(res) ?? UNMATCHED_ROUTE;
      requests.inc({ route, status: res.writableFinished ? res.statusCode : 'aborted' });
      duration.observe({ route }, ms / 1000);
    },
  };
}
