// Bounds on open connections. Every connection holds a file descriptor until node's timeouts cut
// it (a silent one after headersTimeout, 60 s): without a bound, one client opening thousands
// of them takes every descriptor the process may have, and then no one else is accepted and
// SQLite cannot open a file (a snapshot swap). So: at most `perAddress` open connections from
// one client address, and at most `total` in all, below the process's descriptor limit. A
// connection beyond a bound is closed at once, before a byte is read (what node's own
// maxConnections does, which this uses for the total).
import fs from 'node:fs';
import type { Server } from 'node:net';
import { throttleAddress } from '../../domain/accounts/login-throttle.ts';

export interface ConnectionLimits {
  /**
   * Open connections from one client address (an IPv6 address by its /64) at once; 0 = no
   * bound. Off behind a trusted proxy: every connection then comes from the proxy, which is
   * where the per-client bound belongs (docs/deploy.md).
   */
  perAddress: number;
  /** Open connections in all, for this process. */
  total: number;
}

/** Generous for an API client (a lookup takes about a millisecond), small against a flood. */
export const PER_ADDRESS = 128;
/** Descriptors kept for everything that is not a client: SQLite files, the log, workers' pipes. */
const FD_RESERVE = 128;

/** The soft limit on open files (RLIMIT_NOFILE) from /proc; 1024 (the usual default) elsewhere. */
export function openFileLimit(limitsFile = '/proc/self/limits'): number {
  try {
    const m = /^Max open files\s+(\S+)/m.exec(fs.readFileSync(limitsFile, 'utf8'));
    if (m) return m[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(m[1]);
  } catch {
    // not Linux
  }
  return 1024;
}

export function defaultConnectionLimits(trustProxy: boolean): ConnectionLimits {
  return { perAddress: trustProxy ? 0 : PER_ADDRESS, total: Math.max(16, openFileLimit() - FD_RESERVE) };
}

export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.total;
  if (limits.perAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const key = throttleAddress(socket.remoteAddress ?? '-');
    const n = (open.get(key) ?? 0) + 1;
    if (n > limits.perAddress) {
      socket.destroy();
      return;
    }
    open.set(key, n);
    socket.once('close', () => {
      const left = open.get(key)! - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
