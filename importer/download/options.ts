// What a download is asked to do and what it reports: its options, its summary, its error.
import type { NetOptions } from '../../src/storage/transfer/http.ts';
import type { FetchResult } from './fetch-file.ts';

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
  /** Source URL (see servers.ts); default the official share. */
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
