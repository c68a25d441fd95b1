// `cnpj-api serve`: the API and the web app on one port, one log line per request on stdout.
// --workers N runs N processes (node:cluster) sharing the port; app.db is WAL and the quota
// counter is atomic across processes, so they need no coordination.
import cluster from 'node:cluster';
import type { CommandModule } from 'yargs';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../config.ts';
import { openAppDb } from '../../db/app-db.ts';
import { startServer, type RunningServer } from '../../server.ts';
import { CliError } from '../errors.ts';
import { dataDirOf, proxyOptionsOf, withProxyOptions, type GlobalArgs, type ProxyArgs } from '../options.ts';

interface Args extends GlobalArgs, ProxyArgs {
  host: string;
  port: number;
  workers: number;
}

export interface ServeOptions {
  dataDir: string;
  host: string;
  port: number;
  workers: number;
  publicUrl?: string;
  trustProxy?: boolean;
}

/**
 * Single process: the server itself. Cluster primary: migrates app.db once (workers must not
 * race on it), forks the workers, restarts one that dies, and resolves when the first listens.
 * Cluster worker: the server (the primary re-runs the same entry point and arguments).
 */
export async function serve(opts: ServeOptions): Promise<RunningServer> {
  if (opts.workers <= 1 || cluster.isWorker) return startServer(opts);
  await (await openAppDb(opts.dataDir)).close();
  // The kernel hands each connection to a worker (SCHED_NONE). With Node's round-robin the
  // primary accepts and passes connections on; one passed to a worker that dies at that moment
  // stays stuck in the primary, unanswered (seen in the cluster test).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let stopping = false;
  // libuv accepts every pending connection at once, so the first worker to wake took most of
  // a burst (52 of 64 benchmark connections, the other worker 12). One accept per wake-up
  // lets the workers share them (33/31), and with them the load and the latency.
  const fork = () => cluster.fork({ UV_TCP_SINGLE_ACCEPT: '1' });
  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    console.error(`worker ${w.process.pid} exited (${signal ?? code}); starting another`);
    setTimeout(fork, 1000).unref();
  });
  const url = await new Promise<string>((resolve) => {
    cluster.once('listening', (_w, addr) => {
      const host = addr.addressType === 6 ? `[${addr.address}]` : addr.address;
      resolve(`http://${host}:${addr.port}`);
    });
    for (let i = 0; i < opts.workers; i++) fork();
  });
  return {
    url,
    async close() {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {});
      await Promise.all(workers.map((w) => new Promise((r) => (w ? (w.once('exit', r), w.kill('SIGTERM')) : r(null)))));
    },
  };
}

export const serveCommand: CommandModule<GlobalArgs, Args> = {
  command: 'serve',
  describe: 'serve the API and the web app (picks up newly imported snapshots without a restart)',
  builder: (y) =>
    withProxyOptions(y)
      .option('host', { type: 'string', default: DEFAULT_HOST, describe: 'address to listen on' })
      .option('port', { type: 'number', default: DEFAULT_PORT, describe: 'TCP port' })
      .option('workers', { type: 'number', default: 1, describe: 'server processes sharing the port (node:cluster)' }),
  handler: async (argv) => {
    if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) throw new CliError(`invalid port: ${argv.port}`);
    if (!Number.isInteger(argv.workers) || argv.workers < 1 || argv.workers > 64) throw new CliError(`invalid --workers: ${argv.workers}`);
    const proxy = proxyOptionsOf(argv);
    let server: RunningServer;
    try {
      server = await serve({ dataDir: dataDirOf(argv), host: argv.host, port: argv.port, workers: argv.workers, ...proxy });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'EADDRINUSE') throw new CliError(`port ${argv.port} on ${argv.host} is already in use`);
      if (err.code === 'EACCES') throw new CliError(`no permission to listen on ${argv.host}:${argv.port}`);
      throw e;
    }
    const shown = proxy.publicUrl ? `public URL ${proxy.publicUrl}, docs: ${proxy.publicUrl}/docs` : `docs: ${server.url}/docs`;
    if (!cluster.isWorker) console.error(`cnpj-api serving on ${server.url} (${shown})`);
    const stop = () => {
      void server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};
