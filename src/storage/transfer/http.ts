// HTTP plumbing shared by every transfer (the Receita downloader and release pulls): one undici
// Agent, error classes that say whether a retry can help, and exponential backoff.
import { Agent, interceptors, type Dispatcher } from 'undici';
import { setTimeout as sleep } from 'node:timers/promises';

export interface NetOptions {
  /** No byte (headers or body) for this long → abort the attempt. Default 30 s. */
  stallTimeoutMs: number;
  /** Consecutive failures without progress before giving up. Default 8. */
  maxRetries: number;
  /** First backoff delay; doubles per consecutive failure, capped at backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export const DEFAULT_NET: NetOptions = {
  stallTimeoutMs: 30_000,
  maxRetries: 8,
  backoffBaseMs: 1_000,
  backoffMaxMs: 60_000,
};

export function makeAgent(net: NetOptions, connections: number): Dispatcher {
  return new Agent({
    connections: Math.max(1, connections) + 1,
    connect: { timeout: net.stallTimeoutMs },
    headersTimeout: net.stallTimeoutMs,
    bodyTimeout: net.stallTimeoutMs,
    // The server stalls mid-file; a pooled socket after an error is not worth trusting.
    pipelining: 1,
  }).compose(interceptors.redirect({ maxRedirections: 5 }));
}

/** An HTTP status we did not expect. 404 gets its own message upstream. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
  ) {
    super(`${url} answered HTTP ${status}`);
    this.name = 'HttpStatusError';
  }
  get retryable(): boolean {
    return this.status === 408 || this.status === 425 || this.status === 429 || this.status >= 500;
  }
}

/** Retrying cannot help (bad token, disk full, corrupt data served twice...). */
export class FatalDownloadError extends Error {
  override name = 'FatalDownloadError';
}

export function isRetryable(err: unknown): boolean {
  if (err instanceof FatalDownloadError) return false;
  if (err instanceof HttpStatusError) return err.retryable;
  // Network errors: undici's UND_ERR_* (timeouts, socket closed early), ECONNRESET, ECONNREFUSED...
  return true;
}

/** Short text for a retry log line: undici codes are more telling than their messages. */
export function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const map: Record<string, string> = {
    UND_ERR_BODY_TIMEOUT: 'stalled (no data)',
    UND_ERR_HEADERS_TIMEOUT: 'no response',
    UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
    UND_ERR_SOCKET: 'connection closed',
    UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response shorter than announced',
    ECONNRESET: 'connection reset',
    ECONNREFUSED: 'connection refused',
  };
  return (e?.code && map[e.code]) || e?.message || String(err);
}

export function backoffMs(net: NetOptions, failures: number): number {
  const d = Math.min(net.backoffMaxMs, net.backoffBaseMs * 2 ** Math.max(0, failures - 1));
  // Jitter so parallel connections do not hammer the server in lockstep.
  return Math.round(d * (0.75 + Math.random() * 0.5));
}

/** Runs `attempt` until it succeeds or fails non-retryably / too often; `onRetry` sees each failure. */
export async function withRetries<T>(
  net: NetOptions,
  attempt: () => Promise<T>,
  onRetry?: (err: unknown, delayMs: number) => void,
): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isRetryable(err) || failures > net.maxRetries) throw err;
      const delay = backoffMs(net, failures);
      onRetry?.(err, delay);
      await sleep(delay);
    }
  }
}
