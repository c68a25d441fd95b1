// Which files a month's download fetches: the month resolved (`latest` → the newest folder), its
// zips listed and checked against the standard set, the regime share's files added, and the
// sizes an autoindex page does not give asked for with HEAD.
import { isMonth } from '../../src/lib/month.ts';
import { MONTHLY_ZIPS } from '../import-plan.ts';
import type { FetchJob } from './part-download.ts';
import { monthsOf, type RemoteEntry } from './listing.ts';
import { DownloadError, type DownloadOptions } from './options.ts';
import { pool } from '../../src/storage/transfer/pool.ts';
import { headSize, listFolder, NotFoundError, type RemoteCtx } from './remote.ts';
import type { DownloadSession } from './session.ts';
import { regimeLocalName, type Source } from './servers.ts';

function describeSource(s: Source): string {
  return s.url;
}

/** Months on the source, oldest first. */
export async function listMonths(source: Source, ctx: RemoteCtx): Promise<string[]> {
  return monthsOf(await listFolder(source, '', ctx));
}

async function monthEntries(source: Source, month: string, ctx: RemoteCtx): Promise<RemoteEntry[]> {
  try {
    return await listFolder(source, month, ctx);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    let available: string[] = [];
    try {
      available = await listMonths(source, ctx);
    } catch {
      // The root listing is only for the message.
    }
    throw new DownloadError(
      `The month ${month} is not published at ${describeSource(source)}` +
        (available.length ? `; available months: ${available.join(', ')}.` : '.'),
    );
  }
}

/** `latest` → the newest `YYYY-MM` folder on the source. */
export async function resolveMonth(source: Source, month: string, ctx: RemoteCtx): Promise<string> {
  if (month !== 'latest') {
    if (!isMonth(month)) throw new DownloadError(`Invalid month "${month}": use YYYY-MM or latest.`);
    return month;
  }
  const months = await listMonths(source, ctx);
  if (!months.length) throw new DownloadError(`No YYYY-MM folder found at ${describeSource(source)}.`);
  return months[months.length - 1];
}

function safeLocalName(name: string): boolean {
  // No path, no hidden file, no control character (names are printed on the operator's terminal).
  return !!name && !name.startsWith('.') && !/[/\\\x00-\x1f\x7f-\x9f]/.test(name);
}

/** What a month's download will fetch: the month's zips and the regime files, with their sizes. */
export interface DownloadPlan {
  month: string;
  jobs: DownloadJob[];
  /** How many of the jobs are the month folder's own zips (the rest: regime files). */
  monthFiles: number;
  /** Standard monthly zips the server's folder did not have. */
  missingStandard: string[];
}

export type DownloadJob = FetchJob & { source: Source };

export async function planDownload(
  session: DownloadSession,
  opts: Pick<DownloadOptions, 'month' | 'requireComplete'>,
  ctx: RemoteCtx,
): Promise<DownloadPlan> {
  const { log } = session;
  const month = await resolveMonth(session.source, opts.month ?? 'latest', ctx);

  const jobs: DownloadJob[] = [];
  for (const e of await monthEntries(session.source, month, ctx)) {
    if (!e.isDir && /\.zip$/i.test(e.name) && safeLocalName(e.name))
      jobs.push({ name: e.name, url: e.url, size: e.size, source: session.source });
  }
  if (!jobs.length)
    throw new DownloadError(`The folder of ${month} at ${describeSource(session.source)} holds no zip files.`);
  const monthFiles = jobs.length;
  const listed = new Set(jobs.map((j) => j.name.toLowerCase()));
  const missingStandard = MONTHLY_ZIPS.filter((n) => !listed.has(n.toLowerCase()));
  if (missingStandard.length) {
    const what = `the ${month} folder lacks ${missingStandard.length} of the ${MONTHLY_ZIPS.length} standard zips (${missingStandard.join(', ')})`;
    if (opts.requireComplete) {
      throw new DownloadError(`Not importing: ${what}; the publication may still be in progress, run again later.`);
    }
    log(`warning: ${what}`);
  }

  if (session.regime) {
    // Supplementary data: a moved or empty regime share is reported, not fatal for the month.
    const regime = session.regime;
    try {
      const found = (await listFolder(regime, '', ctx)).flatMap((e) => {
        const local = e.isDir ? undefined : regimeLocalName(e.name);
        return local ? [{ name: local, url: e.url, size: e.size, source: regime }] : [];
      });
      if (!found.length)
        log(`warning: no regime files (Lucro Real, Presumido, Arbitrado, Imunes e Isentas) found at ${regime.url}`);
      for (const f of found) if (!jobs.some((j) => j.name === f.name)) jobs.push(f);
    } catch (err) {
      log(
        `warning: the regime files could not be listed at ${regime.url} (${(err as Error).message}); continuing without them`,
      );
    }
  }

  // Autoindex pages give no exact sizes: ask HEAD, so reruns can tell a complete file.
  const unsized = jobs.filter((j) => j.size === undefined);
  await pool(unsized, session.parallel, async (j) => {
    try {
      j.size = await headSize(j.source, j.url, ctx);
    } catch {
      // The GET will say what is wrong.
    }
  });

  return { month, jobs, monthFiles, missingStandard };
}
