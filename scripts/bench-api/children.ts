// The benchmark's child processes (the API server, the bare node:http server, the load
// generator), pinning them to a core, and reading their costs from /proc.
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import cluster from 'node:cluster';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/** Every child runs the benchmark's entry point with --role. */
export const ENTRY = fileURLToPath(new URL('../bench-api.ts', import.meta.url));

/** Killed on the way out, whatever happened. */
export const children = new Set<ChildProcess>();

export function killChildren(): void {
  for (const c of children) c.kill();
}

export function forkChild(
  args: string[],
  stdout: 'inherit' | number,
  execArgv = process.execArgv,
  core?: number,
): ChildProcess {
  const child = fork(ENTRY, args, { stdio: ['ignore', stdout, 'inherit', 'ipc'], execArgv });
  children.add(child);
  // Right after the fork: the threads started so far get the core (-a), later ones inherit it.
  if (core !== undefined) pin(child.pid!, core);
  return child;
}

// ---------------------------------------------------------------- pinning
/** Why this machine cannot run the pinned benchmark, if it cannot. */
export function pinningProblem(): string | undefined {
  const r = spawnSync('taskset', ['-V'], { stdio: 'ignore' });
  if (r.error) return 'taskset is missing (util-linux)';
  const cores = os.availableParallelism();
  if (cores < 2)
    return `the pinned benchmark needs 2 cores (server on core 0, load on core 1); this process may use ${cores}`;
  return undefined;
}

export function pin(pid: number, core: number): void {
  const r = spawnSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(
      `taskset could not pin process ${pid} to core ${core}: ${(r.stderr || r.error?.message || '').trim()}`,
    );
}

// ---------------------------------------------------------------- /proc
export interface Usage {
  userMs: number;
  sysMs: number;
  minflt: number;
  majflt: number;
  /** read-like syscalls and the bytes they returned (files, sockets, pipes alike). */
  syscr: number;
  rchar: number;
  syscw: number;
  rss: number;
}

const ZERO: Usage = { userMs: 0, sysMs: 0, minflt: 0, majflt: 0, syscr: 0, rchar: 0, syscw: 0, rss: 0 };

let tickMs: number | undefined;
/** The length of a clock tick of /proc/<pid>/stat (10 ms on most Linux systems). */
function clockTickMs(): number {
  if (tickMs === undefined) {
    const hz = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
    tickMs = hz > 0 ? 1000 / hz : 10;
  }
  return tickMs;
}

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

export function procUsage(pid: number): Usage {
  // The command name may hold spaces and parentheses: the fields start after the last ") ".
  const stat = read(`/proc/${pid}/stat`)
    .replace(/^.*\) /s, '')
    .split(' ');
  if (stat.length < 13) return ZERO;
  const io = Object.fromEntries(
    [...read(`/proc/${pid}/io`).matchAll(/^(\w+): (\d+)$/gm)].map((m) => [m[1], Number(m[2])]),
  );
  const rss = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`));
  const tick = clockTickMs();
  return {
    userMs: Number(stat[11]) * tick,
    sysMs: Number(stat[12]) * tick,
    minflt: Number(stat[7]),
    majflt: Number(stat[9]),
    syscr: io.syscr ?? 0,
    rchar: io.rchar ?? 0,
    syscw: io.syscw ?? 0,
    rss: rss ? Number(rss[1]) * 1024 : 0,
  };
}

/** The costs so far of a server child and its cluster workers, read by this process. */
export function serverUsage(child: ChildProcess): Promise<Usage> {
  return new Promise((resolve) => {
    child.once('message', (pids) => {
      const all = (pids as number[]).map(procUsage);
      resolve(
        Object.fromEntries(
          Object.keys(ZERO).map((k) => [k, all.reduce((sum, u) => sum + u[k as keyof Usage], 0)]),
        ) as unknown as Usage,
      );
    });
    child.send('pids');
  });
}

/** The costs so far of these processes (a PostgreSQL cluster's), summed. */
export function pidsUsage(pids: number[]): Usage {
  const all = pids.map(procUsage);
  return Object.fromEntries(
    Object.keys(ZERO).map((k) => [k, all.reduce((sum, u) => sum + u[k as keyof Usage], 0)]),
  ) as unknown as Usage;
}

export function usageDelta(after: Usage, before: Usage): Usage {
  return Object.fromEntries(
    Object.keys(ZERO).map((k) => [k, after[k as keyof Usage] - before[k as keyof Usage]]),
  ) as unknown as Usage;
}

// ---------------------------------------------------------------- servers
/** In the child: the API server (role 'server') or the bare node:http server (role 'bare'). */
export async function serverChildMain(
  role: string,
  dataDir: string,
  workers: number,
  metrics = false,
  databaseUrl?: string,
): Promise<void> {
  let url: string;
  let metricsUrl: string | undefined;
  let close: () => Promise<void>;
  if (role === 'bare') {
    const body = JSON.stringify({ company: { razao_social: 'x'.repeat(1900) }, socios: [], contatos_extras: [] });
    const server = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    close = async () => {};
  } else {
    const { serve } = await import('../../src/cli/commands/serve.ts');
    // Request lines go to stdout, which the parent points at /dev/null: the logging cost stays in.
    const s = await serve({
      dataDir,
      databaseUrl,
      host: '127.0.0.1',
      port: 0,
      workers,
      metricsPort: metrics ? 0 : undefined,
    });
    if (cluster.isWorker) return;
    url = s.url;
    metricsUrl = s.metricsUrl;
    close = () => s.close();
  }
  process.on('message', (m) => {
    // This process plus its cluster workers, for the parent to read in /proc.
    if (m === 'pids') process.send!([process.pid, ...Object.values(cluster.workers ?? {}).map((w) => w!.process.pid!)]);
    // A clean exit, so that --cpu-prof writes its profile.
    if (m === 'exit') void close().then(() => process.exit(0));
  });
  process.send!({ url, metricsUrl });
}

/** Starts a server child (optionally pinned to a core) and resolves with its URL. */
export function startServer(
  role: 'server' | 'bare',
  dataDir: string,
  workers: number,
  core?: number,
  metrics = false,
  databaseUrl?: string,
): Promise<{ child: ChildProcess; url: string; metricsUrl?: string }> {
  return new Promise((resolve, reject) => {
    const devnull = fs.openSync('/dev/null', 'w');
    // BENCH_CPU_PROF=dir writes V8 CPU profiles of the server children there.
    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
    const child = forkChild(
      [
        '--role',
        role,
        '--data-dir',
        dataDir,
        '--workers',
        String(workers),
        ...(metrics ? ['--metrics'] : []),
        ...(databaseUrl ? ['--database-url', databaseUrl] : []),
      ],
      devnull,
      [...process.execArgv, ...prof],
      core,
    );
    fs.closeSync(devnull);
    child.once('message', (m) => resolve({ child, ...(m as { url: string; metricsUrl?: string }) }));
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
  });
}

/** Stops a server child and waits for it (its CPU profile is written by then). */
export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.send('exit');
  });
}
