// API load benchmark: authenticated lookups of random existing CNPJs against a registry of
// ≥ 1 M companies, compared with a bare node:http server answering a fixed 2 KB JSON under the
// same load. The server runs in a child process (its RSS is measured there), the load generator
// (undici Pool, keep-alive) in a worker thread of this process, on loopback.
//
//   npm run bench:api -- [--companies 1000000] [--data-dir /tmp/cnpj-bench] [--duration 10]
//                        [--connections 64] [--warmup 2] [--workers <cores>]
import { fork, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SELF = fileURLToPath(import.meta.url);

interface LoadConfig {
  url: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  warmupMs: number;
  durationMs: number;
}

interface LoadResult {
  requests: number;
  /** Including the warm-up, for the server's CPU time per request. */
  allRequests: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
}

// ---------------------------------------------------------------- load generator
async function runLoad(cfg: LoadConfig): Promise<LoadResult> {
  const { Pool } = await import('undici');
  const pool = new Pool(cfg.url, { connections: cfg.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const lat: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let measuring = false;
  let stop = false;
  let i = 0;
  let all = 0;
  const one = async () => {
    while (!stop) {
      const p = cfg.paths[i++ % cfg.paths.length];
      const t0 = performance.now();
      try {
        const res = await pool.request({ path: p, method: 'GET', headers: cfg.headers });
        await res.body.dump({ limit: 1 << 20 });
        all++;
        const ms = performance.now() - t0;
        if (measuring) {
          lat.push(ms);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          if (res.statusCode !== 200) errors++;
        }
      } catch {
        if (measuring) errors++;
      }
    }
  };
  const loops = Array.from({ length: cfg.connections }, one);
  await new Promise((r) => setTimeout(r, cfg.warmupMs));
  measuring = true;
  const start = performance.now();
  await new Promise((r) => setTimeout(r, cfg.durationMs));
  measuring = false;
  const seconds = (performance.now() - start) / 1000;
  stop = true;
  await Promise.all(loops);
  await pool.close();
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
  return { requests: lat.length, allRequests: all, errors, statuses, seconds, p50: q(0.5), p99: q(0.99), max: lat[lat.length - 1] ?? NaN };
}

/** The load generator runs in a process of its own (a worker thread cannot load .ts via tsx on Node 20). */
function load(cfg: LoadConfig): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--role', 'load'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: process.execArgv });
    children.add(child);
    child.once('message', (r) => {
      resolve(r as LoadResult);
      child.kill();
    });
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
    child.send(cfg);
  });
}

const children = new Set<ChildProcess>();

// ---------------------------------------------------------------- server children
type ChildMsg = { url: string } | { rss: number; cpuMs: number; sysMs: number };

/** [user, system] CPU time of a process, in ms (clock ticks are 10 ms on Linux). */
function procCpuMs(pid: number): [number, number] {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    return [Number(fields[11]) * 10, Number(fields[12]) * 10];
  } catch {
    return [0, 0];
  }
}

function procRss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function childMain(role: string, dataDir: string, workers: number): Promise<void> {
  let url: string;
  if (role === 'load') {
    process.once('message', (cfg) => {
      void runLoad(cfg as LoadConfig).then((r) => process.send!(r));
    });
    return;
  }
  if (role === 'bare') {
    const body = JSON.stringify({ company: { razao_social: 'x'.repeat(1900) }, socios: [], contatos_extras: [] });
    const server = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  } else {
    const { serve } = await import('../src/cli/commands/serve.ts');
    // Request lines go to stdout, which the parent points at /dev/null: the logging cost stays in.
    const s = await serve({ dataDir, host: '127.0.0.1', port: 0, workers });
    if (cluster.isWorker) return;
    url = s.url;
    process.on('message', (m) => {
      if (m === 'exit') void s.close().then(() => process.exit(0));
    });
  }
  process.send!({ url } satisfies ChildMsg);
  process.on('message', (m) => {
    if (m === 'rss') {
      // This process plus its cluster workers.
      const pids = Object.values(cluster.workers ?? {}).map((w) => w!.process.pid!);
      const rss = [process.pid, ...pids].reduce((sum, pid) => sum + procRss(pid), 0);
      const cpu = [process.pid, ...pids].map(procCpuMs);
      const sysMs = cpu.reduce((sum, [, sys]) => sum + sys, 0);
      process.send!({ rss, cpuMs: cpu.reduce((sum, [user]) => sum + user, 0) + sysMs, sysMs } satisfies ChildMsg);
    }
    if (m === 'exit' && role === 'bare') process.exit(0);
  });
}

function startChild(role: string, dataDir: string, workers = 1): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const devnull = fs.openSync('/dev/null', 'w');
    // BENCH_CPU_PROF=dir writes a V8 CPU profile of the server child there.
    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = fork(SELF, ['--role', role, '--data-dir', dataDir, '--workers', String(workers)], { stdio: ['ignore', devnull, 'inherit', 'ipc'], execArgv: [...process.execArgv, ...prof] });
    children.add(child);
    child.once('message', (m) => resolve({ child, url: (m as { url: string }).url }));
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
  });
}

function childUsage(child: ChildProcess): Promise<{ rss: number; cpuMs: number; sysMs: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { rss: number; cpuMs: number; sysMs: number }));
    child.send('rss');
  });
}

// ---------------------------------------------------------------- registry
async function ensureRegistry(dataDir: string, companies: number): Promise<void> {
  const { openAppDb } = await import('../src/storage/app-db.ts');
  const { activeSnapshot } = await import('../src/storage/snapshots/records.ts');
  const { dataPaths } = await import('../src/lib/config.ts');
  const app = await openAppDb(dataDir);
  const snap = activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir);
  await app.close();
  const have = snap?.stats.tables.companies?.rows ?? 0;
  if (have >= companies) {
    console.log(`reusing snapshot ${snap!.id} in ${dataDir}: ${have.toLocaleString('en-US')} companies`);
    return;
  }
  // The real pipeline: the synthetic dump generator, then the importer.
  const { generateDump } = await import('../src/demo/generate.ts');
  const { runImport } = await import('../src/importer/run.ts');
  const out = path.join(dataDir, 'bench-dump');
  fs.rmSync(out, { recursive: true, force: true });
  let t = performance.now();
  console.log(`generating a synthetic dump of ${companies.toLocaleString('en-US')} companies ...`);
  await generateDump({ companies, out, seed: 7, month: '2026-09' });
  console.log(`  ${((performance.now() - t) / 1000).toFixed(1)} s; importing ...`);
  t = performance.now();
  const s = await runImport({ dataDir, inputs: [out], month: '2026-09', synthetic: true, skipSpaceCheck: true });
  console.log(`  imported ${s.snapshotId} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  fs.rmSync(out, { recursive: true, force: true });
}

async function sampleCnpjs(dataDir: string, n: number): Promise<string[]> {
  const { openAppDb } = await import('../src/storage/app-db.ts');
  const { activeSnapshot } = await import('../src/storage/snapshots/records.ts');
  const { dataPaths } = await import('../src/lib/config.ts');
  const { openSqlite } = await import('../src/storage/sqlite.ts');
  const app = await openAppDb(dataDir);
  const snap = activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir)!;
  await app.close();
  const est = openSqlite(path.join(snap.dir, 'establishments.db'), { readonly: true, fileMustExist: true });
  const max = (est.prepare('SELECT max(rowid) AS m FROM establishments').get() as { m: number }).m;
  const st = est.prepare('SELECT cnpj FROM establishments WHERE rowid = ?').pluck();
  const out: string[] = [];
  while (out.length < n) {
    const c = st.get(1 + Math.floor(Math.random() * max)) as string | undefined;
    if (c) out.push(c);
  }
  est.close();
  return out;
}

async function benchToken(dataDir: string): Promise<string> {
  const { openAppDb } = await import('../src/storage/app-db.ts');
  const { setPlan } = await import('../src/domain/accounts/plans.ts');
  const { createAccount } = await import('../src/domain/accounts/accounts.ts');
  const { createToken } = await import('../src/domain/accounts/tokens.ts');
  const app = await openAppDb(dataDir);
  try {
    setPlan(app.sqlite, 'Bench', { monthlyQuota: 1_000_000_000, apiIncluded: true });
    const acct = createAccount(app.sqlite, { name: `bench-${Date.now()}`, plan: 'Bench' });
    return createToken(app.sqlite, { accountId: acct.id, name: 'bench', createdBy: 'cli' }).token;
  } finally {
    await app.close();
  }
}

const fmt = (r: LoadResult) =>
  `${Math.round(r.requests / r.seconds).toLocaleString('en-US').padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  max ${r.max.toFixed(1)} ms  errors ${r.errors}  (${r.requests.toLocaleString('en-US')} requests, statuses ${JSON.stringify(r.statuses)})`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string' },
      'data-dir': { type: 'string', default: path.join(os.tmpdir(), 'cnpj-bench') },
      companies: { type: 'string', default: '1000000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '64' },
      // Both cores by default: the cluster is how the server is meant to run on this machine.
      workers: { type: 'string', default: String(os.availableParallelism()) },
    },
  });
  const dataDir = path.resolve(values['data-dir']!);
  const workers = Number(values.workers);
  if (values.role) return childMain(values.role, dataDir, workers);

  const companies = Number(values.companies);
  await ensureRegistry(dataDir, companies);
  const cnpjs = await sampleCnpjs(dataDir, 20_000);
  const token = await benchToken(dataDir);
  const cfg = {
    connections: Number(values.connections),
    warmupMs: Number(values.warmup) * 1000,
    durationMs: Number(values.duration) * 1000,
  };
  console.log(`server: ${workers} process(es); load: ${cfg.connections} keep-alive connections, ${values.warmup} s warm-up, ${values.duration} s measured, ${os.cpus().length} cores`);

  const api = await startChild('server', dataDir, workers);
  const before = await childUsage(api.child);
  const apiResult = await load({
    ...cfg,
    url: api.url,
    paths: cnpjs.map((c) => `/api/v1/brazilian_companies/${c}/company`),
    headers: { authorization: `Bearer ${token}` },
  });
  const { rss, cpuMs, sysMs } = await childUsage(api.child);
  api.child.send('exit');

  const bare = await startChild('bare', dataDir);
  const bareBefore = await childUsage(bare.child);
  const bareResult = await load({ ...cfg, url: bare.url, paths: ['/'], headers: {} });
  const bareAfter = await childUsage(bare.child);
  bare.child.send('exit');
  // CPU per request is what the server costs whatever else runs on the machine.
  const cpuUs = (ms: number, r: LoadResult) => ((ms * 1000) / r.allRequests).toFixed(0);

  console.log(`API lookups : ${fmt(apiResult)}`);
  console.log(`bare 2 KB   : ${fmt(bareResult)}`);
  console.log(`server RSS  : ${(rss / 2 ** 20).toFixed(0)} MiB`);
  console.log(
    `server CPU  : ${cpuUs(cpuMs - before.cpuMs, apiResult)} µs per lookup (${cpuUs(sysMs - before.sysMs, apiResult)} in the kernel), ` +
      `bare ${cpuUs(bareAfter.cpuMs - bareBefore.cpuMs, bareResult)} µs per answer (${cpuUs(bareAfter.sysMs - bareBefore.sysMs, bareResult)} in the kernel)`,
  );
  const ratio = apiResult.requests / apiResult.seconds / (bareResult.requests / bareResult.seconds);
  for (const c of children) c.kill();
  console.log(`ratio       : ${(ratio * 100).toFixed(0)}% of bare (target ≥ 50%), p99 ${apiResult.p99.toFixed(2)} ms (target < 10 ms)`);
}

main().catch((e) => {
  console.error(e);
  for (const c of children) c.kill();
  process.exit(1);
});
