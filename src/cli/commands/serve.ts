// `cnpj-api serve`: the API and the web app on one port, one log line per request on stdout.
// --workers N runs N processes (node:cluster) sharing the port; app.db is WAL and the quota
// counter is atomic across processes, so they need no coordination.
import cluster from 'node:cluster';
import fs from 'node:fs';
import type { CommandModule } from 'yargs';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../lib/config.ts';
import { openNodeStore } from '../../storage/app/store.ts';
import type { RunningServer } from '../../server/server.ts';
import type { startMetricsListener } from '../../server/metrics/listener.ts';
import { CliError } from '../errors.ts';
import { assertCanListen, listenError } from '../listen.ts';
import { readAheadWarning } from '../../lib/read-ahead.ts';
import { parseDuration } from '../../lib/duration.ts';
import type { Follower } from '../../server/follow-state.ts';
import {
  databaseUrlOf,
  dataDirOf,
  numberOption,
  PORT_RULE,
  proxyOptionsOf,
  withProxyOptions,
  type GlobalArgs,
  type ProxyArgs,
} from '../options.ts';

interface Args extends GlobalArgs, ProxyArgs {
  host: string;
  port: number;
  workers: number;
  'metrics-port'?: number;
  'metrics-host': string;
  'webhooks-allow-http': boolean;
  'webhooks-allow-private': boolean;
  'compat-open-account'?: string;
  'compat-open-rate': number;
  follow?: string;
  trust?: string[];
  'follow-interval'?: string;
}

export interface ServeOptions {
  dataDir: string;
  /** Fleet mode: app state in this PostgreSQL (docs/fleet.md). */
  databaseUrl?: string;
  host: string;
  port: number;
  workers: number;
  publicUrl?: string;
  trustProxy?: boolean;
  webhooks?: { allowHttp?: boolean; allowPrivate?: boolean };
  /** Prometheus metrics on this port (docs/metrics.md); none: no metrics. */
  metricsPort?: number;
  /** Their address (default 127.0.0.1: only this machine). */
  metricsHost?: string;
  /** Compat routes without a token, counted on this account (docs/compat.md); off when absent. */
  compatOpen?: { account: string; perMinute: number };
}

/** The server, and where its metrics are served when asked for. */
export interface Serving extends RunningServer {
  metricsUrl?: string;
}

const DEFAULT_METRICS_HOST = '127.0.0.1';

/** Set by the primary on the one cluster worker that queues and sends webhook deliveries. */
const WEBHOOK_WORKER_ENV = 'CNPJ_API_WEBHOOK_WORKER';
const envFlag = (name: string) => /^(1|true|yes)$/i.test(process.env[name] ?? '');

/** What a worker whose server could not start sends the primary before it exits. */
const START_FAILED = 'cnpj-api:start-failed';

/**
 * Single process: the server itself. Cluster primary: migrates app.db once (workers must not
 * race on it), forks the workers, restarts one that dies, and resolves when as many have listened
 * as were asked for (only then is "serving on" true at full strength: until the second worker
 * listened, killing the first closed the shared socket, and with port 0 the second then bound
 * another port; seen in the cluster test); it fails, stopping the others, when a worker stops
 * before any listens (restarting it would fail the same way, forever). Cluster worker: the
 * server (the primary re-runs the same entry point and arguments).
 */
export async function serve(opts: ServeOptions): Promise<Serving> {
  const metricsHost = opts.metricsHost ?? DEFAULT_METRICS_HOST;
  if (opts.workers <= 1 || cluster.isWorker) {
    // With app.db one process of a cluster delivers webhooks (two would send each delivery
    // twice). In fleet mode every process does: each delivery is claimed by one at a time.
    const deliver = !cluster.isWorker || process.env[WEBHOOK_WORKER_ENV] === '1' || opts.databaseUrl !== undefined;
    // A worker's metrics go to the primary, which alone listens on the metrics port.
    const metrics =
      opts.metricsPort === undefined
        ? undefined
        : cluster.isWorker
          ? {}
          : { listen: { host: metricsHost, port: opts.metricsPort } };
    // The server's modules load here, not with the command line: every other command starts
    // without them (a second of module loading per CLI process).
    const [{ boundHeapGrowth }, { startServer }] = await Promise.all([
      import('../../server/heap.ts'),
      import('../../server/server.ts'),
    ]);
    // Old-generation garbage of a pipelining flood (server/heap.ts).
    boundHeapGrowth();
    // The same process writes the node's fleet heartbeat: the node has one row.
    return startServer({ ...opts, webhooks: { ...opts.webhooks, deliver }, metrics, heartbeat: deliver });
  }
  // Created and migrated once, here: the workers must not race on it (PostgreSQL would serialize
  // them on kysely's migration lock; app.db would not). A PostgreSQL unreachable now is migrated
  // by the workers when it answers (each says so).
  await (await openNodeStore(opts.dataDir, opts.databaseUrl, { startUnreachable: { log: () => {} } })).close();
  // The kernel hands each connection to a worker (SCHED_NONE). With Node's round-robin the
  // primary accepts and passes connections on; one passed to a worker that dies at that moment
  // stays stuck in the primary, unanswered (seen in the cluster test).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  let listening = false;
  // libuv accepts every pending connection at once, so the first worker to wake took most of
  // a burst (52 of 64 benchmark connections, the other worker 12). One accept per wake-up
  // lets the workers share them (33/31), and with them the load and the latency.
  // The first worker delivers webhooks; the one replacing it when it dies takes over.
  let deliverer: ReturnType<typeof cluster.fork> | undefined;
  const fork = (webhooks = false) => {
    const w = cluster.fork({ UV_TCP_SINGLE_ACCEPT: '1', [WEBHOOK_WORKER_ENV]: webhooks ? '1' : '0' });
    if (webhooks) deliverer = w;
  };
  const stopWorkers = () =>
    Promise.all(
      Object.values(cluster.workers ?? {}).map(
        (w) => new Promise((r) => (w && !w.isDead() ? (w.once('exit', r), w.kill('SIGTERM')) : r(null))),
      ),
    );
  cluster.on('exit', (w, code, signal) => {
    if (stopping || !listening) return;
    console.error(`worker ${w.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(() => fork(w === deliverer), 1000).unref();
  });
  let url: string;
  try {
    url = await new Promise<string>((resolve, reject) => {
      let listened = 0;
      cluster.on('listening', (_w, addr) => {
        listening = true;
        if (++listened !== opts.workers) return;
        const host = addr.addressType === 6 ? `[${addr.address}]` : addr.address;
        resolve(`http://${host}:${addr.port}`);
      });
      cluster.on('message', (w, msg: { type?: string; message?: string }) => {
        if (msg?.type !== START_FAILED) return;
        if (!listening) reject(new CliError(msg.message ?? 'the server could not start'));
        else console.error(`worker ${w.process.pid} could not start: ${msg.message}`);
      });
      // The IPC channel closes after the worker's last message, so a reported reason wins.
      cluster.on('disconnect', (w) => {
        if (!listening) reject(new CliError(`server process ${w.process.pid} stopped before listening`));
      });
      for (let i = 0; i < opts.workers; i++) fork(i === 0);
    });
  } catch (err) {
    stopping = true;
    await stopWorkers();
    throw err;
  }
  let metrics: Awaited<ReturnType<typeof startMetricsListener>> | undefined;
  try {
    if (opts.metricsPort !== undefined) {
      const [{ startMetricsListener }, { clusterScrape }] = await Promise.all([
        import('../../server/metrics/listener.ts'),
        import('../../server/metrics/cluster.ts'),
      ]);
      metrics = await startMetricsListener(metricsHost, opts.metricsPort, clusterScrape());
    }
  } catch (err) {
    stopping = true;
    await stopWorkers();
    throw err;
  }
  return {
    url,
    metricsUrl: metrics?.url,
    async close() {
      stopping = true;
      await metrics?.close();
      await stopWorkers();
    },
  };
}

/** In a cluster worker: tells the primary why this server could not start, then exits. */
function reportStartFailure(err: unknown): void {
  const message = (err as Error)?.message ?? String(err);
  process.send!({ type: START_FAILED, message }, () => process.exit(1));
}

function compatOpenOf(argv: Args): ServeOptions['compatOpen'] {
  const account = argv['compat-open-account'];
  if (account === undefined) return undefined;
  if (account.trim() === '') throw new CliError('--compat-open-account needs an account name');
  return { account, perMinute: argv['compat-open-rate'] };
}

export const serveCommand: CommandModule<GlobalArgs, Args> = {
  command: 'serve',
  describe: 'serve the API and the web app (picks up newly imported snapshots without a restart)',
  builder: (y) =>
    withProxyOptions(y)
      .option('host', { type: 'string', default: DEFAULT_HOST, describe: 'address to listen on' })
      .option('port', numberOption('port', PORT_RULE, { default: DEFAULT_PORT, describe: 'TCP port' }))
      .option(
        'workers',
        numberOption(
          'workers',
          { integer: true, min: 1, max: 64 },
          { default: 1, describe: 'server processes sharing the port (node:cluster)' },
        ),
      )
      .option(
        'metrics-port',
        numberOption('metrics-port', PORT_RULE, {
          describe: 'serve Prometheus metrics on this port, apart from the public one (docs/metrics.md)',
        }),
      )
      .option('metrics-host', {
        type: 'string',
        default: DEFAULT_METRICS_HOST,
        describe: 'address of the metrics listener (keep it private)',
      })
      .option('webhooks-allow-http', {
        type: 'boolean',
        default: envFlag('CNPJ_API_WEBHOOKS_ALLOW_HTTP'),
        describe: 'accept http:// webhook URLs, not only https:// (env CNPJ_API_WEBHOOKS_ALLOW_HTTP=1)',
      })
      .option('webhooks-allow-private', {
        type: 'boolean',
        default: envFlag('CNPJ_API_WEBHOOKS_ALLOW_PRIVATE'),
        describe:
          'let webhooks reach loopback, private and link-local addresses (env CNPJ_API_WEBHOOKS_ALLOW_PRIVATE=1)',
      })
      .option('compat-open-account', {
        type: 'string',
        describe:
          'let the compatibility routes (BrasilAPI, Minha Receita, OpenCNPJ, ReceitaWS shapes) answer calls without a token, counted on this account; for internal networks only (docs/compat.md)',
      })
      .option(
        'compat-open-rate',
        numberOption(
          'compat-open-rate',
          { integer: true, min: 1, max: 1_000_000 },
          { default: 60, describe: 'tokenless compat calls per minute per client address (per server process)' },
        ),
      )
      .option('follow', {
        type: 'string',
        describe:
          'follow signed releases at this folder, http(s):// URL or s3://bucket/prefix: pull and switch to each new one in the background (docs/releases.md)',
      })
      .option('trust', {
        type: 'string',
        array: true,
        describe: 'with --follow: public key file(s) a release must be signed with (release.pub)',
      })
      .option('follow-interval', {
        type: 'string',
        describe:
          "with --follow: how often the source is checked (30s, 10m, 1h; default 10m); in fleet mode how often the fleet's database is read besides its notifications (default 5s)",
      }),
  handler: async (argv) => {
    const proxy = proxyOptionsOf(argv);
    const follow = followOptionsOf(argv);
    let server: Serving;
    const metricsPort = argv['metrics-port'];
    if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === argv.port)
      throw new CliError('--metrics-port must differ from --port: the metrics are never served on the public port');
    try {
      // A taken metrics port named as such, before the workers start (their failure would name --port).
      if (metricsPort !== undefined && !cluster.isWorker) await assertCanListen(argv['metrics-host'], metricsPort);
      const webhooks = { allowHttp: argv['webhooks-allow-http'], allowPrivate: argv['webhooks-allow-private'] };
      server = await serve({
        dataDir: dataDirOf(argv),
        databaseUrl: databaseUrlOf(argv),
        host: argv.host,
        port: argv.port,
        workers: argv.workers,
        metricsPort,
        metricsHost: argv['metrics-host'],
        ...proxy,
        webhooks,
        compatOpen: compatOpenOf(argv),
      });
    } catch (e) {
      const err = listenError(e, argv.host, argv.port);
      // The primary says it once (and stops the other workers) rather than each worker.
      if (cluster.isWorker) return reportStartFailure(err);
      throw err;
    }
    const shown = proxy.publicUrl
      ? `public URL ${proxy.publicUrl}, docs: ${proxy.publicUrl}/docs`
      : `docs: ${server.url}/docs`;
    if (!cluster.isWorker) {
      console.error(`cnpj-api serving on ${server.url} (${shown})`);
      if (server.metricsUrl) console.error(`metrics on ${server.metricsUrl}`);
      const readAhead = readAheadWarning(dataDirOf(argv));
      if (readAhead !== null) console.error(readAhead);
    }
    // One follower per node: the single process, or the cluster's primary. In fleet mode it
    // follows the fleet's release in the shared database, and switches when the fleet does.
    let follower: Follower | undefined;
    const databaseUrl = databaseUrlOf(argv);
    if (follow && !cluster.isWorker && databaseUrl !== undefined) {
      const { FLEET_POLL_MS, startFleetFollower } = await import('../../server/fleet-follow.ts');
      follower = startFleetFollower({
        dataDir: dataDirOf(argv),
        databaseUrl,
        source: follow.source,
        trust: follow.trust,
        pollMs: follow.intervalMs ?? FLEET_POLL_MS,
        onSwitched: () => server.refreshRegistry?.(),
      });
      console.error(`following the fleet's release, pulled from ${follow.source}`);
    } else if (follow && !cluster.isWorker) {
      const { startFollower } = await import('../../server/follow.ts');
      const intervalMs = follow.intervalMs ?? DEFAULT_FOLLOW_MS;
      follower = startFollower({ dataDir: dataDirOf(argv), ...follow, intervalMs });
      console.error(`following releases at ${follow.source} every ${argv['follow-interval'] ?? '10m'}`);
    }
    const stop = () => {
      void Promise.all([follower?.stop(), server.close()]).then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};

/** `--follow SOURCE --trust KEY [--follow-interval 10m]`, checked before the server starts. */
const DEFAULT_FOLLOW_MS = 10 * 60_000;

function followOptionsOf(argv: Args): { source: string; trust: string[]; intervalMs?: number } | undefined {
  const trust = argv.trust ?? [];
  if (argv.follow === undefined) {
    if (trust.length) throw new CliError('--trust is used with --follow SOURCE');
    return undefined;
  }
  if (Array.isArray(argv.follow)) throw new CliError('--follow given more than once');
  if (trust.length === 0) throw new CliError('--follow needs --trust FILE (the public key releases are signed with)');
  for (const t of trust) if (!fs.existsSync(t)) throw new CliError(`--trust ${t}: no such file`);
  const given = argv['follow-interval'];
  if (given === undefined) return { source: argv.follow, trust };
  const intervalMs = parseDuration(given);
  if (intervalMs === null)
    throw new CliError(`invalid --follow-interval "${given}": a duration such as 30s, 10m or 1h`);
  return { source: argv.follow, trust, intervalMs };
}
