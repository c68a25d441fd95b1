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
//                        [--postgres | --database-url URL] [--compat [--rounds 3]]
//
// --metrics: the API server runs with its Prometheus metrics on (serve --metrics-port), to
// measure what they cost; they are scraped once after the measured window and the lookups they
// counted are printed.
//
// --postgres: fleet mode compared with the default in the same run, on the same month: the API
// server once with app.db (as always), once with its app state in a throwaway PostgreSQL cluster
// started here (initdb + pg_ctl, a Unix socket; test/helpers/postgres.ts), then the bare server.
// --database-url URL: the same against an existing PostgreSQL instead (its app schema migrated,
// a bench account added). With --pinned, the throwaway cluster's processes share the load
// generator's core, and their CPU per lookup is printed beside the server's.
//
// --compat: after the native lookup, the same CNPJs through each compat route (BrasilAPI, Minha
// Receita, OpenCNPJ, ReceitaWS; docs/compat.md), each on a fresh server child, and the server CPU
// per lookup of each against the native one (target ≤ 1.1×); --rounds N repeats (native, each
// shape) N times and prints each round's ratio and their median.
//
// BENCH_CPU_PROF=dir writes V8 CPU profiles of the server children there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  killChildren,
  pidsUsage,
  pin,
  pinningProblem,
  serverChildMain,
  serverUsage,
  startServer,
  stopServer,
  usageDelta,
  type Usage,
} from './bench-api/children.ts';
import { load, loadChildMain, type LoadConfig, type LoadResult } from './bench-api/load.ts';
import { benchToken, benchTokenPostgres, ensureRegistry, sampleCnpjs } from './bench-api/registry.ts';
import { startPgCluster, type PgCluster } from '../test/helpers/postgres.ts';

/** --compat: each compat route's path for a CNPJ. */
const COMPAT_ROUTES: readonly [string, (cnpj: string) => string][] = [
  ['brasilapi', (c) => `/api/cnpj/v1/${c}`],
  ['minha-receita', (c) => `/minha-receita/${c}`],
  ['opencnpj', (c) => `/opencnpj/${c}`],
  ['receitaws', (c) => `/v1/cnpj/${c}`],
];

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
  /** The PostgreSQL cluster's costs over the window, when this run started it. */
  pgCost?: Usage;
}

/** The processes of a running cluster: the postmaster (postmaster.pid) and its children. */
function clusterPids(dir: string): number[] {
  const main = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const pids = [main];
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = fs
        .readFileSync(`/proc/${p}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ');
      if (Number(stat[1]) === main) pids.push(Number(p));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** One server child under load; its /proc is read at the edges of the measured window. */
async function measure(
  role: 'server' | 'bare',
  dataDir: string,
  workers: number,
  cfg: LoadConfig,
  pinned: boolean,
  metrics = false,
  pgUrl?: string,
  pgCluster?: PgCluster,
): Promise<Run> {
  const server = await startServer(role, dataDir, workers, pinned ? SERVER_CORE : undefined, metrics, pgUrl);
  let before: Usage | undefined;
  let after: Usage | undefined;
  let pgBefore: Usage | undefined;
  let pgAfter: Usage | undefined;
  const pg = () => (pgCluster ? pidsUsage(clusterPids(pgCluster.dir)) : undefined);
  const result = await load(
    { ...cfg, url: server.url },
    {
      opens: async () => {
        before = await serverUsage(server.child);
        pgBefore = pg();
      },
      closed: async () => {
        after = await serverUsage(server.child);
        pgAfter = pg();
      },
    },
    pinned ? LOAD_CORE : undefined,
  );
  // After the window: a scrape must not weigh on the measure (Prometheus scrapes every 15 s or so).
  const counted = server.metricsUrl ? await countedLookups(server.metricsUrl) : undefined;
  await stopServer(server.child);
  const pgCost = pgAfter && pgBefore ? usageDelta(pgAfter, pgBefore) : undefined;
  return { result, counted, cost: usageDelta(after!, before!), rss: after!.rss, pgCost };
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

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

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
      postgres: { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      compat: { type: 'boolean', default: false },
      rounds: { type: 'string', default: '1' },
    },
  });
  const dataDir = path.resolve(values['data-dir']!);
  const pinned = values.pinned!;
  if (values.role === 'load') return loadChildMain();
  if (values.role === 'server' || values.role === 'bare')
    return serverChildMain(values.role, dataDir, Number(values.workers), values.metrics, values['database-url']);

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
  const rounds = Number(values.rounds);
  for (const [name, v, min] of [
    ['workers', workers, 1],
    ['connections', connections, 1],
    ['duration', duration, 0.1],
    ['warmup', warmup, 0],
    ['sample', sample, 1],
    ['rounds', rounds, 1],
  ] as const) {
    if (!(v >= min)) throw new Error(`--${name} must be a number ≥ ${min}`);
  }

  await ensureRegistry(dataDir, Number(values.companies));
  const cnpjs = await sampleCnpjs(dataDir, sample);
  const token = await benchToken(dataDir);
  // Fleet mode beside the default: a throwaway cluster (pinned: on the load generator's core, so
  // that the server's core is the server's alone), or the PostgreSQL given.
  let cluster: PgCluster | undefined;
  let pgUrl = values['database-url'];
  if (values.postgres && !pgUrl) {
    cluster = await startPgCluster();
    pgUrl = await cluster.createDatabase('bench');
    if (pinned) for (const pid of clusterPids(cluster.dir)) pin(pid, LOAD_CORE);
  }
  const pgToken = pgUrl ? await benchTokenPostgres(dataDir, pgUrl) : undefined;
  const cfg = { url: '', connections, warmupMs: warmup * 1000, durationMs: duration * 1000 };
  console.log(
    (pinned
      ? `pinned: server (1 process) on core ${SERVER_CORE}, load generator on core ${LOAD_CORE}`
      : `server: ${workers} process(es), ${os.availableParallelism()} cores`) +
      `${values.metrics ? '; metrics on' : ''}; load: ${connections} keep-alive connections, warm-up: one pass over ${int(cnpjs.length)} CNPJs + ${warmup} s; ${duration} s measured`,
  );

  const paths = cnpjs.map((c) => `/api/v1/brazilian_companies/${c}/company`);
  const api = await measure(
    'server',
    dataDir,
    workers,
    { ...cfg, paths, headers: { authorization: `Bearer ${token}` } },
    pinned,
    values.metrics,
  );
  // --compat: rounds of (native, each shape), each ratio against its own round's native run, so
  // that drift between server children (±10% here) weighs on both sides of a ratio alike.
  const compat = new Map<string, { last: Run; cpu: number[]; ratios: number[] }>();
  const nativeCpu: number[] = [];
  if (values.compat) {
    const auth = { authorization: `Bearer ${token}` };
    for (let round = 0; round < rounds; round++) {
      const native =
        round === 0 ? api : await measure('server', dataDir, workers, { ...cfg, paths, headers: auth }, pinned);
      const [base] = cpuUs(native);
      nativeCpu.push(base);
      for (const [name, route] of COMPAT_ROUTES) {
        const run = await measure(
          'server',
          dataDir,
          workers,
          { ...cfg, paths: cnpjs.map(route), headers: auth },
          pinned,
        );
        const [cpu] = cpuUs(run);
        const entry = compat.get(name) ?? { last: run, cpu: [], ratios: [] };
        entry.last = run;
        entry.cpu.push(cpu);
        entry.ratios.push(cpu / base);
        compat.set(name, entry);
      }
    }
  }
  let pgApi: Run | undefined;
  try {
    if (pgUrl)
      pgApi = await measure(
        'server',
        dataDir,
        workers,
        { ...cfg, paths, headers: { authorization: `Bearer ${pgToken}` } },
        pinned,
        values.metrics,
        pgUrl,
        cluster,
      );
  } finally {
    await cluster?.stop();
  }
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
  if (compat.size > 0)
    console.log(
      `native      : ${nativeCpu.map((c) => c.toFixed(1)).join(', ')} µs CPU per lookup (${rounds} round(s))`,
    );
  for (const [name, { last, cpu, ratios }] of compat) {
    console.log(`${name.padEnd(12)}: ${fmt(last.result)}`);
    console.log(`per lookup  : ${perRequest(last)} (${name}, last round)`);
    console.log(
      `compat/native: ${name} ${cpu.map((c) => c.toFixed(1)).join(', ')} µs; ratio per round ${ratios.map((r) => r.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}× (target ≤ 1.1×)`,
    );
  }
  if (pgApi) {
    if (pgApi.result.warmErrors)
      console.log(`warning     : ${int(pgApi.result.warmErrors)} PostgreSQL-mode warm-up lookups failed`);
    console.log(`PostgreSQL  : ${fmt(pgApi.result)}`);
    console.log(`per lookup  : ${perRequest(pgApi)} (PostgreSQL mode, the server)`);
    if (pgApi.pgCost) {
      const pgCpu = ((pgApi.pgCost.userMs + pgApi.pgCost.sysMs) * 1000) / pgApi.result.requests;
      console.log(`PostgreSQL's: ${pgCpu.toFixed(1)} µs CPU per lookup in the cluster's own processes`);
    }
    const [pgCpu] = cpuUs(pgApi);
    console.log(
      `fleet/local : server CPU per lookup ${(pgCpu / apiCpu).toFixed(2)}× app.db's (target ≤ 1.2×); p99 ${pgApi.result.p99.toFixed(2)} ms vs ${api.result.p99.toFixed(2)} ms`,
    );
  }
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
