// The HTTP server: the app state (app.db, or in fleet mode the shared PostgreSQL: accounts, tokens,
// usage), the company registry with its snapshot swap, the API and the web app on one port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContactsCopy } from '../domain/company/contacts-copy.ts';
import { Meter } from '../domain/metering/meter.ts';
import { openApiState, type ApiState } from '../storage/app/api-state.ts';
import { buildApp } from './app.ts';
import { clientErrorHandler } from './api/client-error.ts';
import { sendError } from './api/errors.ts';
import type { Route } from './http/router.ts';
import { CountedResponse, type InFlightLimits } from './http/in-flight.ts';
import { bufferedWriter, type LogFn } from './http/log.ts';
import { openNodeStore, type OpenAppStore } from '../storage/app/store.ts';
import { getAccountByName } from '../domain/accounts/accounts.ts';
import type { CompatOpen } from './api/compat-open.ts';
import { defaultConnectionLimits, limitConnections, type ConnectionLimits } from './http/connection-limits.ts';
import { CompanyRegistry } from '../domain/company/lookup.ts';
import { HistoryReader } from '../domain/history/reader.ts';
import type { DestinationPolicy } from '../domain/webhooks/destination.ts';
import { WebhookWorker } from '../domain/webhooks/worker.ts';
import { appDbCheck } from './api/readiness.ts';
import { shareWithPrimary } from './metrics/cluster.ts';
import { startMetricsListener, type MetricsListener } from './metrics/listener.ts';
import { createServerMetrics } from './metrics/server-metrics.ts';
import { startHeartbeat, type Heartbeat } from './heartbeat.ts';
import { readFollowState } from './follow-state.ts';
import { nodeIdentity } from '../storage/app/fleet-nodes.ts';
import { hostPort } from '../lib/uri.ts';
import { VERSION } from '../lib/version.ts';

export interface ServerOptions {
  dataDir: string;
  /** Fleet mode: app state in this PostgreSQL instead of app.db (docs/fleet.md). */
  databaseUrl?: string;
  host: string;
  port: number;
  /** Base URL shown to users (docs, OpenAPI, curl examples); default: the listening address. */
  publicUrl?: string;
  /** A reverse proxy is the only way in: believe its X-Forwarded-For/-Proto. */
  trustProxy?: boolean;
  now?: () => Date;
  /** Active-snapshot polling interval (ms). */
  pollMs?: number;
  /** Where request and operational lines go (default: stdout, batched per event-loop turn). */
  log?: LogFn;
  /** Extra entries at the end of the route table, for tests. */
  extraRoutes?: readonly Route[];
  /** Other bounds on requests held at once, for tests (default IN_FLIGHT_LIMITS). */
  inFlight?: InFlightLimits;
  /** Other connection timeouts, for tests (default HTTP_TIMEOUTS). */
  timeouts?: Partial<typeof HTTP_TIMEOUTS>;
  /** Other connection bounds, for tests (default: defaultConnectionLimits()). */
  connections?: Partial<ConnectionLimits>;
  /** Where a count with `q` stops and says `exact: false`, for tests (default DEFAULT_COUNT_BOUND). */
  countBound?: number;
  /** Webhook destinations the operator allows (docs/webhooks.md), and whether this process delivers (default yes; one process of a cluster). */
  webhooks?: DestinationPolicy & { deliver?: boolean };
  /**
   * Prometheus metrics (docs/metrics.md): `listen` serves them on that address (one process);
   * without it this process is a cluster worker whose primary collects them over IPC.
   */
  metrics?: { listen?: { host: string; port: number } };
  /**
   * Fleet mode: whether this process writes the node's heartbeat (default yes; one process of a
   * cluster, as the node's row is one), and how often (default HEARTBEAT_MS; tests).
   */
  heartbeat?: boolean;
  heartbeatMs?: number;
  /**
   * The compat routes answer calls without a token, counted on this account, at most
   * `perMinute` per client address (docs/compat.md, "Without a token"). Off when absent.
   */
  compatOpen?: { account: string; perMinute: number };
}

/**
 * Node's own request deadlines (headers in 60 s, the whole request in 300 s, checked every
 * 30 s), and `idle`: a connection that has a request in progress and neither sends nor accepts
 * a byte for that long is closed (a client that stopped reading its answers; node's default is
 * never). Idle keep-alive connections between requests close after node's 5 s.
 */
export const HTTP_TIMEOUTS = { headers: 60_000, request: 300_000, check: 30_000, idle: 60_000 };

export interface RunningServer {
  url: string;
  close(): Promise<void>;
  /**
   * Reads the active-snapshot pointer now rather than at the next poll (a fleet's switch, timed to
   * the millisecond). Cluster workers poll on their own (within a second).
   */
  refreshRegistry?(): void;
}

/** This process's server: also the route table it answers (tests go through each entry). */
export interface StartedServer extends RunningServer {
  routes: readonly Route[];
  /** Where the metrics are served, when this process listens for them. */
  metricsUrl?: string;
}

/**
 * The tokenless compat switch's account, by name: it must exist (a typo would count calls nowhere).
 * A fleet node started during an outage looks it up when its database answers; until then the
 * account id is null and tokenless calls answer 503 (compat.ts).
 */
async function compatOpenAccount(
  store: OpenAppStore,
  open: { account: string; perMinute: number },
  log: LogFn,
): Promise<CompatOpen> {
  const missing = () => `--compat-open-account: no account named ${JSON.stringify(open.account)}`;
  const lookUp = async () => (await getAccountByName(store, open.account))?.id ?? null;
  if (store.migrated) {
    const id = await lookUp();
    if (id === null) throw new Error(missing());
    return { accountId: id, perMinute: open.perMinute };
  }
  const later: CompatOpen = { accountId: null, perMinute: open.perMinute };
  void store.whenMigrated.then(lookUp).then(
    (id) => (id === null ? log(`${missing()}; tokenless compat calls answer 503`) : (later.accountId = id)),
    (err: unknown) => log(`--compat-open-account: ${(err as Error).message}; tokenless compat calls answer 503`),
  );
  return later;
}

export async function startServer(opts: ServerOptions): Promise<StartedServer> {
  const now = opts.now ?? (() => new Date());
  const buffered = opts.log ? null : bufferedWriter(process.stdout);
  const log: LogFn = opts.log ?? buffered!;
  // Migrates: the registry's read-only connections need app.db's tables (the registry pointer). A
  // shared PostgreSQL unreachable now is migrated when it answers; until then the API answers 503.
  const store = await openNodeStore(opts.dataDir, opts.databaseUrl, { startUnreachable: { log } });
  let registry: CompanyRegistry | undefined;
  // history.db's one read-only connection for every route that reads it, opened on first need.
  const history = new HistoryReader(opts.dataDir);
  let apiState: ApiState | undefined;
  let metricsListener: MetricsListener | undefined;
  let heartbeat: Heartbeat | undefined;
  const timeouts = { ...HTTP_TIMEOUTS, ...opts.timeouts };
  const server = http.createServer({
    // Tells the in-flight count when an answer exists (see InFlight).
    ServerResponse: CountedResponse,
    headersTimeout: timeouts.headers,
    requestTimeout: timeouts.request,
    connectionsCheckingInterval: timeouts.check,
  });
  server.timeout = timeouts.idle;
  limitConnections(server, { ...defaultConnectionLimits(opts.trustProxy ?? false), ...opts.connections });
  try {
    // The app state as the API serves from it: on app.db a connection of its own whose commits are
    // made durable off the event loop (WalSync); on the fleet's PostgreSQL, the store's pool.
    const state = (apiState = openApiState(store));
    // The snapshot is read at scrape time, when the registry (made below) exists.
    const metrics = opts.metrics
      ? createServerMetrics({
          snapshot: () => registry?.info ?? null,
          staged: () => readFollowState(opts.dataDir)?.fleet?.staged ?? null,
          store,
          now,
        })
      : undefined;
    // The extra contacts come from memory, brought to the contacts epoch each count reads.
    const contacts = new ContactsCopy(state.metering);
    const access = new Meter(state.metering, { now, observer: metrics?.access, contacts });
    const compatOpen = opts.compatOpen && (await compatOpenAccount(store, opts.compatOpen, log));
    registry = new CompanyRegistry({
      dataDir: opts.dataDir,
      pollMs: opts.pollMs,
      log,
      contacts: (cnpj) => contacts.get(cnpj),
    });
    if (metrics && opts.metrics?.listen) {
      const { host, port } = opts.metrics.listen;
      metricsListener = await startMetricsListener(host, port, {
        metrics: () => metrics.registry.metrics(),
        contentType: metrics.registry.contentType,
      });
    } else if (metrics) shareWithPrimary(metrics.registry);
    // Bind first: the base URL (for the docs and the web app's curl example) needs the real port.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    const url = `http://${hostPort(addr.address, addr.port)}`;
    // Registered before the event loop can deliver the first request.
    const { handle, routes } = buildApp({
      state,
      access,
      registry,
      history,
      now,
      baseUrl: opts.publicUrl ?? url,
      appDbReady: appDbCheck(opts.dataDir),
      metrics,
      trustProxy: opts.trustProxy,
      log,
      inFlight: opts.inFlight,
      extraRoutes: opts.extraRoutes,
      countBound: opts.countBound,
      webhooks: opts.webhooks,
      compatOpen,
    });
    server.on('request', handle);
    // Queues newly recorded months and sends due deliveries: with app.db one process of a
    // cluster (the primary picks it); in fleet mode every process of every node, each delivery
    // claimed by one worker at a time (domain/webhooks/attempts.ts).
    const webhooks =
      opts.webhooks?.deliver === false
        ? null
        : new WebhookWorker({
            store,
            history,
            policy: opts.webhooks ?? {},
            now,
            log,
            // app.db: one process of the cluster delivers (the primary picks it); a fleet's nodes all do.
            soleDeliverer: store.backend === 'sqlite',
          });
    webhooks?.start();
    if (store.backend === 'postgres' && opts.heartbeat !== false) {
      const served = registry;
      heartbeat = startHeartbeat({
        db: store.db,
        node: nodeIdentity(opts.dataDir, VERSION),
        served: () => ({
          listenUrl: url,
          month: served.info?.month ?? null,
          release: served.info?.release ?? null,
        }),
        log,
        intervalMs: opts.heartbeatMs,
      });
    }
    server.on('clientError', clientErrorHandler(log));
    // Node answers an unknown Expect with an empty 417; ours is the JSON error. The client may
    // be sending a body it was told to hold back: the connection closes after the answer.
    server.on('checkExpectation', (_req, res) => sendError(res, 'expectation_failed', { Connection: 'close' }));
    log(`listening on ${url}${registry.info ? ` (registry ${registry.info.month})` : ' (no registry imported yet)'}`);
    if (metricsListener) log(`metrics on ${metricsListener.url}`);

    let closing: Promise<void> | undefined;
    const r = registry;
    return {
      url,
      routes,
      metricsUrl: metricsListener?.url,
      refreshRegistry: () => void r.refresh(),
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            // Requests in flight finish; keep-alive sockets that stay open are cut after a grace period.
            setTimeout(() => server.closeAllConnections(), 2000).unref();
          });
          await webhooks?.stop();
          await heartbeat?.stop();
          await metricsListener?.close();
          r.close();
          history.close();
          // Answers waiting for a WAL flush have been sent once server.close() returned.
          state.close();
          await store.close();
          buffered?.flush();
        })();
        return closing;
      },
    };
  } catch (err) {
    server.close();
    await heartbeat?.stop();
    await metricsListener?.close();
    registry?.close();
    history.close();
    apiState?.close();
    await store.close();
    throw err;
  }
}
