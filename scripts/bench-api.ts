// API load benchmark: authenticated lookups of random existing CNPJs against a registry of
// ≥ 1 M companies (generated and imported into --data-dir if it has fewer), compared with a bare
// node:http server answering a fixed 2 KB JSON under the same load. Each server runs in a child
// process, the load generator (undici Pool, keep-alive) in another, on loopback.
//
// Default mode: the server as it is meant to run here (--workers, one per core), the load
// generator wherever the kernel puts it: throughput and latency of the whole machine.
//
// --pinned: the CPU cost of one lookup on ONE core. The server (one process) runs on core 0,
// the load generator on core 1 (taskset -a), the same for the bare server; what the API costs
// beyond the bare server is the cost of our own code. Needs taskset and 2 cores.
//
// Both modes warm up with one pass over every sampled path plus --warmup seconds, then measure
// --duration seconds; the server's costs (CPU time, page faults, read/write syscalls, from
// /proc/<pid>/stat and /proc/<pid>/io) are read just before and after that window and divided by
// the requests completed in it. CPU time counts in 10 ms clock ticks: keep windows long.
//
//   npm run bench:api -- [--pinned] [--companies 1000000] [--data-dir /tmp/cnpj-bench]
//                        [--duration 10 | 20 pinned] [--warmup 2] [--sample 20000]
//                        [--connections 64 | 16 pinned] [--workers <cores> | 1 pinned] [--metrics]
//
// --metrics: the API server runs with its Prometheus metrics on (serve --metrics-port), to
// measure what they cost; they are scraped once after the measured window and the lookups they
// counted are printed.
//
// BENCH_CPU_PROF=dir writes V8 CPU profiles of the server children there.
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  killChildren,
  pinningProblem,
  serverChildMain,
  serverUsage,
  startServer,
  stopServer,
  usageDelta,
  type Usage,
} from './bench-api/children.ts';
import { load, loadChildMain, type LoadConfig, type LoadResult } from './bench-api/load.ts';
import { benchToken, ensureRegistry, sampleCnpjs } from './bench-api/registry.ts';

/** The cores of --pinned. */
const SERVER_CORE = 0;
const LOAD_CORE = 1;

interface Run {
  result: LoadResult;
  /** The metrics' count of answered lookups (200) when they were on. */
  counted?: number;
  /** The server's costs over the measured window. */
  cost: Usage;
  /** The server's resident memory at the end. */
  rss: number;
}

/** One server child under load; its /proc is read at the edges of the measured window. */
async function measure(
  role: 'server' | 'bare',
  dataDir: string,
  workers: number,
  cfg: LoadConfig,
  pinned: boolean,
  metrics = false,
): Promise<Run> {
  const server = await startServer(role, dataDir, workers, pinned ? SERVER_CORE : undefined, metrics);
  let before: Usage | undefined;
  let after: Usage | undefined;
  const result = await load(
    { ...cfg, url: server.url },
    {
      opens: async () => void (before = await serverUsage(server.child)),
      closed: async () => void (after = await serverUsage(server.child)),
    },
    pinned ? LOAD_CORE : undefined,
  );
  // After the window: a scrape must not weigh on the measure (Prometheus scrapes every 15 s or so).
  const counted = server.metricsUrl ? await countedLookups(server.metricsUrl) : undefined;
  await stopServer(server.child);
  return { result, counted, cost: usageDelta(after!, before!), rss: after!.rss };
}

/** The sum of cnpj_api_http_requests_total over the lookup's 200 answers. */
async function countedLookups(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const line = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('cnpj_api_http_requests_total{') && l.includes(':cnpj/company"') && l.includes('status="200"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');

const fmt = (r: LoadResult) =>
  `${int(r.requests / r.seconds).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(1)} ms  errors ${r.errors}  (${int(r.requests)} requests, statuses ${JSON.stringify(r.statuses)})`;

/** µs of CPU per request: user + kernel, and the kernel part. */
const cpuUs = (run: Run) => [
  ((run.cost.userMs + run.cost.sysMs) * 1000) / run.result.requests,
  (run.cost.sysMs * 1000) / run.result.requests,
];

function perRequest(run: Run): string {
  const per = (n: number) => n / run.result.requests;
  const [cpu, sys] = cpuUs(run);
  return (
    `${cpu.toFixed(1)} µs CPU (${sys.toFixed(1)} in the kernel); page faults ${per(run.cost.minflt).toFixed(2)} minor, ${per(run.cost.majflt).toFixed(3)} major; ` +
    `${per(run.cost.syscr).toFixed(2)} reads (${int(per(run.cost.rchar))} B), ${per(run.cost.syscw).toFixed(2)} writes`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string' },
      pinned: { type: 'boolean', default: false },
      'data-dir': { type: 'string', default: path.join(os.tmpdir(), 'cnpj-bench') },
      companies: { type: 'string', default: '1000000' },
      duration: { type: 'string' },
      warmup: { type: 'string', default: '2' },
      sample: { type: 'string', default: '20000' },
      connections: { type: 'string' },
      workers: { type: 'string' },
      metrics: { type: 'boolean', default: false },
    },
  });
  const dataDir = path.resolve(values['data-dir']!);
  const pinned = values.pinned!;
  if (values.role === 'load') return loadChildMain();
  if (values.role === 'server' || values.role === 'bare')
    return serverChildMain(values.role, dataDir, Number(values.workers), values.metrics);

  if (pinned) {
    const problem = pinningProblem();
    if (problem) {
      console.error(`--pinned: ${problem}`);
      process.exit(1);
    }
    if (values.workers !== undefined && values.workers !== '1') {
      console.error('--pinned runs the server as one process on one core: leave out --workers');
      process.exit(1);
    }
  }
  // Default mode: both cores, the cluster is how the server is meant to run on this machine.
  const workers = pinned ? 1 : Number(values.workers ?? os.availableParallelism());
  // One core cannot use 64 connections usefully; 20 s make 2,000 clock ticks on a busy core.
  const connections = Number(values.connections ?? (pinned ? 16 : 64));
  const duration = Number(values.duration ?? (pinned ? 20 : 10));
  const warmup = Number(values.warmup);
  const sample = Number(values.sample);
  for (const [name, v, min] of [
    ['workers', workers, 1],
    ['connections', connections, 1],
    ['duration', duration, 0.1],
    ['warmup', warmup, 0],
    ['sample', sample, 1],
  ] as const) {
    if (!(v >= min)) throw new Error(`--${name} must be a number ≥ ${min}`);
  }

  await ensureRegistry(dataDir, Number(values.companies));
  const cnpjs = await sampleCnpjs(dataDir, sample);
  const token = await benchToken(dataDir);
  const cfg = { url: '', connections, warmupMs: warmup * 1000, durationMs: duration * 1000 };
  console.log(
    (pinned
      ? `pinned: server (1 process) on core ${SERVER_CORE}, load generator on core ${LOAD_CORE}`
      : `server: ${workers} process(es), ${os.availableParallelism()} cores`) +
      `${values.metrics ? '; metrics on' : ''}; load: ${connections} keep-alive connections, warm-up: one pass over ${int(cnpjs.length)} CNPJs + ${warmup} s; ${duration} s measured`,
  );

  const api = await measure(
    'server',
    dataDir,
    workers,
    {
      ...cfg,
      paths: cnpjs.map((c) => `/api/v1/brazilian_companies/${c}/company`),
      headers: { authorization: `Bearer ${token}` },
    },
    pinned,
    values.metrics,
  );
  const bare = await measure('bare', dataDir, 1, { ...cfg, paths: ['/'], headers: {} }, pinned);
  killChildren();

  if (api.result.warmErrors)
    console.log(
      `warning     : ${int(api.result.warmErrors)} of ${int(api.result.warmRequests)} warm-up lookups failed`,
    );
  console.log(`API lookups : ${fmt(api.result)}`);
  if (api.counted !== undefined) console.log(`metrics     : ${int(api.counted)} lookups answered 200 counted`);
  console.log(`bare 2 KB   : ${fmt(bare.result)}`);
  console.log(`server RSS  : ${(api.rss / 2 ** 20).toFixed(0)} MiB (bare ${(bare.rss / 2 ** 20).toFixed(0)} MiB)`);
  // Per request, what the server costs whatever else runs on the machine.
  console.log(`per lookup  : ${perRequest(api)}`);
  console.log(`per bare    : ${perRequest(bare)}`);
  const [apiCpu, apiSys] = cpuUs(api);
  const [bareCpu, bareSys] = cpuUs(bare);
  console.log(
    `own code    : ${(apiCpu - bareCpu).toFixed(1)} µs CPU per lookup = API − bare (${(apiSys - bareSys).toFixed(1)} in the kernel)`,
  );
  if (!pinned) {
    const ratio = api.result.requests / api.result.seconds / (bare.result.requests / bare.result.seconds);
    console.log(
      `ratio       : ${(ratio * 100).toFixed(0)}% of bare (target ≥ 50%), p99 ${api.result.p99.toFixed(2)} ms (target < 10 ms)`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  killChildren();
  process.exit(1);
});
