// `cnpj-api download`: pick the month, list it (and the regime share), fetch every zip with a
// bounded pool of connections, and report. A failed file does not stop the others: a rerun only
// has to fetch what is missing.
import fs from 'node:fs';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import { DEFAULT_NET, describeError, makeAgent, type NetOptions } from './http.ts';
import { isMonth } from '../../lib/month.ts';
import { acquireLock } from '../../lib/pid-lock.ts';
import { monthsOf, type RemoteEntry } from './listing.ts';
import { fetchFile, type FetchJob, type FetchResult } from './fetch-file.ts';
import { DownloadProgress, fmtBytes } from './progress.ts';
import { headSize, listFolder, NotFoundError, type RemoteCtx } from './remote.ts';
import { defaultRegimeSource, defaultSource, parseSource, regimeLocalName, type Source } from './sources.ts';
import { testZip } from './verify.ts';
import { MONTHLY_ZIPS } from '../sources.ts';

export class DownloadError extends Error {
  override name = 'DownloadError';
  /** What did complete, when some files failed (the summary is printed either way). */
  summary?: DownloadSummary;
}

export interface DownloadOptions {
  dataDir: string;
  /** `YYYY-MM` or `latest` (default). */
  month?: string;
  /** Default `<dataDir>/downloads/YYYY-MM`. */
  out?: string;
  /** Source URL (see sources.ts); default the official share. */
  source?: string;
  /** Regime files folder; `none` skips them. */
  regimeSource?: string;
  parallel?: number;
  net?: Partial<NetOptions>;
  /** Re-run the zip test on files already complete. */
  recheck?: boolean;
  /** Refuse a month that lacks some of the 37 standard zips (publication in progress?). */
  requireComplete?: boolean;
  /** Notes, retries and (off a TTY) one line per file. Default: stderr. */
  log?: (line: string) => void;
  /** Where the TTY progress line goes; null: nowhere. Default process.stderr. */
  progressStream?: NodeJS.WriteStream | null;
}

export interface DownloadSummary {
  month: string;
  dir: string;
  files: number;
  regimeFiles: number;
  skipped: number;
  /** Bytes received over the network in this run. */
  fetchedBytes: number;
  /** Size of all the files on disk. */
  totalBytes: number;
  retries: number;
  seconds: number;
  /** Standard monthly zips the server's folder did not have. */
  missingStandard: string[];
  results: FetchResult[];
}

export function defaultDownloadDir(dataDir: string, month: string): string {
  return path.join(dataDir, 'downloads', month);
}

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
  return !!name && !name.startsWith('.') && !/[/\\\0]/.test(name);
}

async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
}

function onDiskBytes(dir: string, name: string): number {
  for (const f of [name, `${name}.part`]) {
    try {
      return fs.statSync(path.join(dir, f)).size;
    } catch {
      // not there
    }
  }
  return 0;
}

export interface DownloadSession {
  agent: Dispatcher;
  net: NetOptions;
  log: (line: string) => void;
  source: Source;
  regime: Source | null;
  parallel: number;
  close(): Promise<void>;
}

/** Parses the options into sources and one shared connection pool. */
export function openSession(opts: Pick<DownloadOptions, 'source' | 'regimeSource' | 'parallel' | 'net' | 'log'>): DownloadSession {
  const net = { ...DEFAULT_NET, ...opts.net };
  const parallel = Math.max(1, Math.floor(opts.parallel ?? 3));
  const source = parseSource(opts.source || defaultSource());
  const regimeSpec = opts.regimeSource || defaultRegimeSource();
  const regime = regimeSpec === 'none' ? null : parseSource(regimeSpec);
  const agent = makeAgent(net, parallel);
  return {
    agent,
    net,
    source,
    regime,
    parallel,
    log: opts.log ?? ((line) => process.stderr.write(`${line}\n`)),
    close: () => agent.close(),
  };
}

export function remoteCtx(s: DownloadSession, note: (line: string) => void): RemoteCtx {
  return {
    agent: s.agent,
    net: s.net,
    onRetry: (what, err, delay) => note(`${what}: ${describeError(err)}; retrying in ${(delay / 1000).toFixed(1)} s`),
  };
}

export async function downloadMonth(opts: DownloadOptions): Promise<DownloadSummary> {
  const session = openSession(opts);
  try {
    return await downloadWith(session, opts);
  } finally {
    await session.close();
  }
}

export async function downloadWith(session: DownloadSession, opts: DownloadOptions): Promise<DownloadSummary> {
  const t0 = performance.now();
  const { log } = session;
  const ctx = remoteCtx(session, log);
  const month = await resolveMonth(session.source, opts.month ?? 'latest', ctx);

  const jobs: (FetchJob & { source: Source })[] = [];
  for (const e of await monthEntries(session.source, month, ctx)) {
    if (!e.isDir && /\.zip$/i.test(e.name) && safeLocalName(e.name)) jobs.push({ name: e.name, url: e.url, size: e.size, source: session.source });
  }
  if (!jobs.length) throw new DownloadError(`The folder of ${month} at ${describeSource(session.source)} holds no zip files.`);
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
      if (!found.length) log(`warning: no regime files (Lucro Real, Presumido, Arbitrado, Imunes e Isentas) found at ${regime.url}`);
      for (const f of found) if (!jobs.some((j) => j.name === f.name)) jobs.push(f);
    } catch (err) {
      log(`warning: the regime files could not be listed at ${regime.url} (${(err as Error).message}); continuing without them`);
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

  const dir = path.resolve(opts.out ?? defaultDownloadDir(opts.dataDir, month));
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireLock(path.join(dir, '.download.lock'), `download into ${dir}`);
  try {
    const need = jobs.reduce((n, j) => n + Math.max(0, (j.size ?? 0) - onDiskBytes(dir, j.name)), 0);
    const st = fs.statfsSync(dir);
    const free = st.bavail * st.bsize;
    if (need > free) {
      throw new DownloadError(`Not enough disk space in ${dir}: the download needs ${fmtBytes(need)} more, ${fmtBytes(free)} free.`);
    }

    const progress = new DownloadProgress(jobs, opts.progressStream === undefined ? process.stderr : opts.progressStream, log);
    const results: FetchResult[] = [];
    const failures: { name: string; message: string }[] = [];
    // Biggest first: Estabelecimentos0 (1.3 GB) starting last would leave one connection working alone.
    const order = [...jobs].sort((a, b) => (b.size ?? 0) - (a.size ?? 0));
    // Ctrl-C or a stop: the .part files stay for the next run; leave the terminal and lock clean.
    const onSignal = (sig: NodeJS.Signals) => {
      progress.stop();
      release();
      log(`download interrupted (${sig}); partial files are kept as .part, rerun to resume`);
      process.exit(sig === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    progress.start();
    try {
      await pool(order, session.parallel, async (job) => {
        try {
          const r = await fetchFile(job, {
            ...ctx,
            source: job.source,
            dir,
            verify: async (file) => void (await testZip(file)),
            recheck: opts.recheck,
            events: progress.events,
          });
          results.push(r);
          progress.fileDone(r);
        } catch (err) {
          failures.push({ name: job.name, message: (err as Error).message });
          progress.fileFailed(job.name);
          progress.note(`${job.name}: FAILED: ${(err as Error).message}`);
        }
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      progress.stop();
    }
    const summary: DownloadSummary = {
      month,
      dir,
      files: results.length,
      regimeFiles: jobs.length - monthFiles,
      skipped: results.filter((r) => r.skipped).length,
      fetchedBytes: results.reduce((n, r) => n + r.fetched, 0),
      totalBytes: results.reduce((n, r) => n + r.size, 0),
      retries: results.reduce((n, r) => n + r.retries, 0),
      seconds: (performance.now() - t0) / 1000,
      missingStandard,
      results,
    };
    if (failures.length) {
      const list = failures.map((f) => `${f.name} (${f.message.replace(/\.$/, '')})`).join('; ');
      const e = new DownloadError(
        `${failures.length} of ${jobs.length} files of ${month} failed: ${list}. Rerun the command to resume; completed files are kept.`,
      );
      e.summary = summary;
      throw e;
    }
    return summary;
  } finally {
    release();
  }
}

export function formatDownloadSummary(s: DownloadSummary): string {
  const rate = s.seconds > 0 && s.fetchedBytes ? `, ${fmtBytes(s.fetchedBytes / s.seconds)}/s` : '';
  return (
    `downloaded ${s.month}: ${s.files} files (${s.files - s.regimeFiles} monthly + ${s.regimeFiles} regime, ${s.skipped} already complete), ` +
    `${fmtBytes(s.totalBytes)} on disk, ${fmtBytes(s.fetchedBytes)} fetched in ${s.seconds.toFixed(1)} s${rate}, ` +
    `${s.retries} ${s.retries === 1 ? 'retry' : 'retries'} → ${s.dir}`
  );
}
