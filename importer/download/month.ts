// `cnpj-api download`: pick the month, list it (and the regime share), fetch every zip with a
// bounded pool of connections, and report. A failed file does not stop the others: a rerun only
// has to fetch what is missing. What to fetch is planned in plan.ts; the session in session.ts.
import fs from 'node:fs';
import path from 'node:path';
import { acquireLock } from '../../src/lib/pid-lock.ts';
import { fetchFile, type FetchResult } from './fetch-file.ts';
import { DownloadError, type DownloadOptions, type DownloadSummary } from './options.ts';
import { planDownload } from './plan.ts';
import { pool } from '../../src/storage/transfer/pool.ts';
import { DownloadProgress, fmtBytes } from './transfer-progress.ts';
import { openSession, remoteCtx, type DownloadSession } from './session.ts';
import { testZip } from './verify.ts';

export { DownloadError, type DownloadOptions, type DownloadSummary } from './options.ts';

export function defaultDownloadDir(dataDir: string, month: string): string {
  return path.join(dataDir, 'downloads', month);
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
  const { month, jobs, monthFiles, missingStandard } = await planDownload(session, opts, ctx);

  const dir = path.resolve(opts.out ?? defaultDownloadDir(opts.dataDir, month));
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireLock(path.join(dir, '.download.lock'), `download into ${dir}`);
  try {
    const need = jobs.reduce((n, j) => n + Math.max(0, (j.size ?? 0) - onDiskBytes(dir, j.name)), 0);
    const st = fs.statfsSync(dir);
    const free = st.bavail * st.bsize;
    if (need > free) {
      throw new DownloadError(
        `Not enough disk space in ${dir}: the download needs ${fmtBytes(need)} more, ${fmtBytes(free)} free.`,
      );
    }

    const progress = new DownloadProgress(
      jobs,
      opts.progressStream === undefined ? process.stderr : opts.progressStream,
      log,
    );
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
