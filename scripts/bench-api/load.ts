// The load generator: a process of its own (a worker thread cannot load .ts via tsx on Node 20),
// an undici Pool of keep-alive connections, each running one request after another.
//
// Protocol with the parent: config → warm-up (one pass over every path, then --warmup seconds)
// → 'warm' → the parent reads the server's /proc and answers 'go' → the measured window → the
// result → the parent reads /proc again. The load is idle at both readings, so the server's
// costs between them belong to exactly the requests counted in the result.
import { forkChild } from './children.ts';

export interface LoadConfig {
  url: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
  /** Completed in the measured window, all of them (the last ones finish just after its end). */
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  warmRequests: number;
  warmErrors: number;
}

async function runLoad(cfg: LoadConfig, warmed: () => Promise<void>): Promise<LoadResult> {
  const { Pool } = await import('undici');
  const pool = new Pool(cfg.url, { connections: cfg.connections, pipelining: 1, keepAliveTimeout: 60_000 });
  /** The status, 0 when the request failed. */
  const get = async (path: string): Promise<number> => {
    try {
      const res = await pool.request({ path, method: 'GET', headers: cfg.headers });
      await res.body.dump({ limit: 1 << 20 });
      return res.statusCode;
    } catch {
      return 0;
    }
  };
  const n = cfg.paths.length;
  let next = 0;
  const connections = (loop: () => Promise<void>) => Promise.all(Array.from({ length: cfg.connections }, loop));

  let warmRequests = 0;
  let warmErrors = 0;
  const warm = (status: number) => {
    warmRequests++;
    if (status !== 200) warmErrors++;
  };
  // Every path once: the first visit of a record's pages is not measured.
  await connections(async () => {
    while (next < n) warm(await get(cfg.paths[next++]));
  });
  const warmUntil = performance.now() + cfg.warmupMs;
  await connections(async () => {
    while (performance.now() < warmUntil) warm(await get(cfg.paths[next++ % n]));
  });
  await warmed();

  const lat: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const start = performance.now();
  const end = start + cfg.durationMs;
  await connections(async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const status = await get(cfg.paths[next++ % n]);
      lat.push(performance.now() - t0);
      if (status) statuses[status] = (statuses[status] ?? 0) + 1;
      if (status !== 200) errors++;
    }
  });
  const seconds = (performance.now() - start) / 1000;
  // The pool stays open: closing its connections now would cost the server before the last reading.
  lat.sort((a, b) => a - b);
  const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
  return {
    requests: lat.length,
    errors,
    statuses,
    seconds,
    p50: q(0.5),
    p99: q(0.99),
    max: lat[lat.length - 1] ?? NaN,
    warmRequests,
    warmErrors,
  };
}

/** In the load child. */
export function loadChildMain(): void {
  process.once('message', (cfg) => {
    const warmed = () =>
      new Promise<void>((resolve) => {
        process.once('message', () => resolve());
        process.send!('warm');
      });
    void runLoad(cfg as LoadConfig, warmed).then((r) => process.send!(r));
  });
}

/** Hooks run by the parent, with the load idle, just before and just after the measured window. */
export interface Window {
  opens(): Promise<void>;
  closed(): Promise<void>;
}

/** Runs the load child (optionally pinned to a core) and resolves with its result. */
export function load(cfg: LoadConfig, window: Window, core?: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = forkChild(['--role', 'load'], 'inherit', process.execArgv, core);
    const fail = (e: unknown) => {
      child.kill();
      reject(e);
    };
    child.on('message', (m) => {
      if (m === 'warm') {
        window.opens().then(() => child.send('go'), fail);
        return;
      }
      child.removeAllListeners('exit');
      window.closed().then(() => {
        child.kill();
        resolve(m as LoadResult);
      }, fail);
    });
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code}`)));
    child.send(cfg);
  });
}
