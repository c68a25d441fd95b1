// One file: resumable GET into NAME.part (part-download.ts), size check, zip test, then rename
// to NAME. Only a file that passed every check ever carries its final name, so an interrupted run
// (crash, kill, power cut) leaves at worst a .part that the next run resumes or restarts.
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fsyncPath } from '../../src/storage/fs-sync.ts';
import { FatalDownloadError } from '../../src/storage/transfer/http.ts';
import { downloadToPart, sizeOf, type FetchCtx, type FetchJob } from './part-download.ts';

export interface FetchResult {
  name: string;
  size: number;
  /** Bytes received over the network in this run. */
  fetched: number;
  skipped: boolean;
  retries: number;
  seconds: number;
}

export async function fetchFile(job: FetchJob, ctx: FetchCtx): Promise<FetchResult> {
  const t0 = performance.now();
  const ev = ctx.events ?? {};
  const final = path.join(ctx.dir, job.name);
  const part = `${final}.part`;
  let retries = 0;
  const done = (size: number, fetched: number, skipped: boolean): FetchResult => ({
    name: job.name,
    size,
    fetched,
    skipped,
    retries,
    seconds: (performance.now() - t0) / 1000,
  });

  const existing = await sizeOf(final);
  if (existing !== undefined) {
    if (job.size === undefined || existing === job.size) {
      if (!ctx.recheck) return done(existing, 0, true);
      ev.onPhase?.(job.name, 'test');
      try {
        await ctx.verify(final);
        return done(existing, 0, true);
      } catch (err) {
        ev.onNote?.(job.name, `failed the zip test on re-check (${(err as Error).message}); downloading again`);
      }
    } else {
      ev.onNote?.(job.name, `is ${existing} bytes on disk but ${job.size} on the server; downloading again`);
    }
    await rm(final, { force: true });
  }

  let fetched = 0;
  for (let integrityFailures = 0; ;) {
    const r = await downloadToPart(job, part, ctx, () => retries++);
    fetched += r.fetched;
    ev.onPhase?.(job.name, 'test');
    try {
      await ctx.verify(part);
    } catch (err) {
      // Bad bytes: resuming on them cannot help, so the .part goes and the next try starts at zero.
      await rm(part, { force: true });
      ev.onBytes?.(job.name, -r.size);
      const why = (err as Error).message;
      if (++integrityFailures >= 2) {
        throw new FatalDownloadError(
          `${job.name} failed the zip integrity test twice (${why}); the file on the server may be corrupt.`,
        );
      }
      retries++;
      ev.onRetry?.(job.name, `zip integrity test failed (${why}), downloading again from zero`, 0);
      continue;
    }
    await fsyncPath(part);
    await rename(part, final);
    await fsyncPath(ctx.dir, 'r');
    return done(r.size, fetched, false);
  }
}
