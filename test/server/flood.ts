// A pipelining flood on real sockets: connections that write lookups back to back and never read
// an answer, a polite client timing its lookups meanwhile, and the server processes' RSS from
// /proc. Used by test/api/flood.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { childPids } from './helpers.ts';

/** Resident set size of a process in bytes (0 once it is gone). */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** RSS of a process and its children (a cluster primary and its workers). */
export function treeRss(pid: number): number {
  return [pid, ...childPids(pid)].reduce((sum, p) => sum + rssOf(p), 0);
}

export interface Flood {
  /** Requests written so far (as bytes / request size). */
  sent(): number;
  /** Connections the server closed (the flood reconnects). */
  closed(): number;
  stop(): void;
}

/**
 * `connections` sockets, each writing `path` lookups back to back as fast as the socket accepts
 * them and never reading. A socket the server closes is replaced while the flood runs.
 */
export function startFlood(url: string, path: string, token: string, connections: number): Flood {
  const u = new URL(url);
  const one = `GET ${path} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`;
  const chunk = Buffer.from(one.repeat(200));
  let bytes = 0;
  let closed = 0;
  let stopped = false;
  const sockets = new Set<net.Socket>();
  const open = () => {
    const s = net.connect({ host: u.hostname, port: Number(u.port) });
    sockets.add(s);
    // Never reads: no 'data' listener, so the socket buffers 16 KB of answers and then stops
    // reading, and the server's writes back up as with a client that does not read.
    const pump = () => {
      while (!stopped && s.write(chunk)) bytes += chunk.length;
    };
    s.on('connect', pump);
    s.on('drain', () => {
      bytes += chunk.length;
      pump();
    });
    s.on('error', () => {});
    s.on('close', () => {
      sockets.delete(s);
      if (stopped) return;
      closed++;
      setTimeout(open, 10);
    });
  };
  for (let i = 0; i < connections; i++) open();
  return {
    sent: () => Math.floor(bytes / one.length),
    closed: () => closed,
    stop() {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

export interface PoliteResult {
  latencies: number[];
  statuses: number[];
}

/** One lookup on a new connection: its status and milliseconds (status 0: no answer in time). */
export function timedGet(url: string, token: string, timeoutMs: number): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get(
      url,
      { agent: false, headers: { Authorization: `Bearer ${token}` }, timeout: timeoutMs },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
        res.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
  });
}

/** Lookups one after another, `gapMs` apart, until `untilMs` (performance.now() time). */
export async function politeClient(
  url: string,
  token: string,
  untilMs: number,
  gapMs: number,
  timeoutMs: number,
): Promise<PoliteResult> {
  const out: PoliteResult = { latencies: [], statuses: [] };
  while (performance.now() < untilMs) {
    const r = await timedGet(url, token, timeoutMs);
    out.latencies.push(r.ms);
    out.statuses.push(r.status);
    await new Promise((res) => setTimeout(res, gapMs));
  }
  return out;
}

/**
 * Ordinary load: `concurrency` lookups at a time over 8 keep-alive connections that read every
 * answer, for `ms`. Returns the number of answers.
 */
export async function readingLoad(url: string, token: string, ms: number, concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const end = performance.now() + ms;
  let n = 0;
  const loop = async () => {
    while (performance.now() < end) {
      await new Promise<void>((resolve) => {
        http
          .get(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
            res.resume();
            res.on('end', resolve);
            res.on('error', () => resolve());
          })
          .on('error', () => resolve());
      });
      n++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  agent.destroy();
  return n;
}
