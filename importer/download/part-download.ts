// Filling NAME.part over HTTP: resumed with Range where the server allows it, restarted from zero
// where it does not, retried with backoff on network errors, its size checked against the listing.
import { open, stat, truncate } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import {
  backoffMs,
  describeError,
  FatalDownloadError,
  HttpStatusError,
  isRetryable,
} from '../../src/storage/transfer/http.ts';
import { authFailed, NotFoundError, sourceHeaders, type RemoteCtx } from './remote.ts';
import type { Source } from './servers.ts';

export interface FetchJob {
  /** Local file name (the name the importer expects). */
  name: string;
  url: string;
  /** Exact size from the listing (or HEAD), when known. */
  size?: number;
}

export interface FetchEvents {
  /** Bytes added to (or, on a restart from zero, removed from: negative) the file's progress. */
  onBytes?(name: string, delta: number): void;
  /** The size became known (from the response) or the file is already partly on disk. */
  onSize?(name: string, size: number, onDisk: number): void;
  onPhase?(name: string, phase: 'download' | 'test'): void;
  onRetry?(name: string, reason: string, delayMs: number): void;
  onNote?(name: string, text: string): void;
}

export interface FetchCtx extends RemoteCtx {
  source: Source;
  dir: string;
  /** Throws when the file is not a sound zip (see verify.ts). */
  verify: (file: string) => Promise<void>;
  /** Re-test files that are already complete (else a matching size is enough). */
  recheck?: boolean;
  events?: FetchEvents;
}

export async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseContentRange(v: string | string[] | undefined): { start?: number; total?: number } | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/i.exec(v.trim());
  if (!m) return undefined;
  return { start: m[1] !== undefined ? Number(m[1]) : undefined, total: m[3] !== '*' ? Number(m[3]) : undefined };
}

/** A retryable condition we detected ourselves (not a network error). */
class RetryableError extends Error {}

/** Fills `part` until it holds the whole file (by the listing's size, else the server's). */
export async function downloadToPart(
  job: FetchJob,
  part: string,
  ctx: FetchCtx,
  countRetry: () => void,
): Promise<{ size: number; fetched: number }> {
  const ev = ctx.events ?? {};
  let expected = job.size;
  let fetched = 0;
  let failures = 0;
  let announced = false;

  const restartFromZero = async (have: number) => {
    if (have > 0) {
      await truncate(part, 0);
      ev.onBytes?.(job.name, -have);
    }
  };

  for (;;) {
    let offset = (await sizeOf(part)) ?? 0;
    if (!announced) {
      announced = true;
      if (offset > 0 || expected !== undefined) ev.onSize?.(job.name, expected ?? 0, offset);
    }
    if (expected !== undefined && offset > expected) {
      await restartFromZero(offset);
      offset = 0;
    }
    // Fully fetched by an earlier run that stopped before the test: go straight to the test.
    if (expected !== undefined && offset === expected && offset > 0) return { size: offset, fetched };

    const before = offset;
    ev.onPhase?.(job.name, 'download');
    try {
      const got = await attempt(offset);
      fetched += got.fetched;
      return { size: got.size, fetched };
    } catch (err) {
      const now = (await sizeOf(part)) ?? 0;
      fetched += Math.max(0, now - before);
      // Progress resets the count: a slow server that stalls every few minutes still finishes.
      failures = now > before ? 1 : failures + 1;
      if (!isRetryable(err) || failures > ctx.net.maxRetries) {
        if (err instanceof FatalDownloadError) throw err;
        throw new FatalDownloadError(
          `${job.name} could not be downloaded after ${failures} attempts: ${describeError(err)}.`,
        );
      }
      countRetry();
      const delay = backoffMs(ctx.net, failures);
      ev.onRetry?.(job.name, describeError(err), delay);
      await sleep(delay);
    }
  }

  async function attempt(offset: number): Promise<{ size: number; fetched: number }> {
    const res = await request(job.url, {
      method: 'GET',
      headers: sourceHeaders(ctx.source, offset > 0 ? { range: `bytes=${offset}-` } : {}),
      dispatcher: ctx.agent,
    });
    const learnTotal = (total: number) => {
      if (expected === undefined) {
        expected = total;
        ev.onSize?.(job.name, total, offset);
      } else if (total !== expected) {
        throw new FatalDownloadError(
          `${job.name} is ${expected} bytes in the listing but the server sends ${total}; the file may be changing on the server, try again later.`,
        );
      }
    };

    let append: boolean;
    try {
      if (res.statusCode === 206) {
        const cr = parseContentRange(res.headers['content-range']);
        if (!cr || cr.start !== offset) {
          await res.body.dump();
          await restartFromZero(offset);
          throw new RetryableError(`unexpected Content-Range ${String(res.headers['content-range'])}`);
        }
        if (cr.total !== undefined) learnTotal(cr.total);
        append = true;
      } else if (res.statusCode === 200) {
        const len = res.headers['content-length'];
        if (typeof len === 'string' && /^\d+$/.test(len)) learnTotal(Number(len));
        if (offset > 0) {
          // The server ignored Range: the body is the whole file, so the .part starts over.
          ev.onNote?.(job.name, 'the server ignored the resume request; restarting from zero');
          ev.onBytes?.(job.name, -offset);
          offset = 0;
        }
        append = false;
      } else if (res.statusCode === 416) {
        await res.body.dump();
        const total = parseContentRange(res.headers['content-range'])?.total;
        if (total !== undefined && total === offset) {
          learnTotal(total);
          return { size: offset, fetched: 0 };
        }
        await restartFromZero(offset);
        throw new RetryableError('the server refused the resume range');
      } else {
        await res.body.dump();
        if (res.statusCode === 404) throw new NotFoundError(job.url);
        if (res.statusCode === 401 || res.statusCode === 403) throw authFailed(ctx.source, res.statusCode);
        throw new HttpStatusError(res.statusCode, job.url);
      }
    } catch (err) {
      // Never leave a body unread: it would pin the connection.
      await res.body.dump().catch(() => {});
      throw err;
    }

    let fh;
    try {
      fh = await open(part, append ? 'a' : 'w');
    } catch (err) {
      await res.body.dump().catch(() => {});
      throw new FatalDownloadError(`Cannot write ${part}: ${(err as Error).message}.`);
    }
    let size = offset;
    let got = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        try {
          await fh.write(chunk);
        } catch (err) {
          throw new FatalDownloadError(`Cannot write ${part}: ${(err as Error).message}.`);
        }
        size += chunk.length;
        got += chunk.length;
        ev.onBytes?.(job.name, chunk.length);
        if (expected !== undefined && size > expected) {
          throw new RetryableError(`the server sent more than the ${expected} bytes expected`);
        }
      }
    } finally {
      await fh.close();
    }
    if (expected !== undefined && size < expected) throw new RetryableError('the connection ended early');
    return { size, fetched: got };
  }
}
