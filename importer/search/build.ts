// The search step of an import (docs/search.md): after the writers, before the publish. Starts one
// builder process per part (part.ts, in `cnpj-api __import-search`), each indexing its share of the
// establishments and partners on its own core, then merges their count tables into search.db
// (finish.ts). Parts are independent files, so the build scales with the cores; the queries read
// the parts and merge them by CNPJ (domain/search/).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TableStats } from '../../src/storage/snapshots/records.ts';
import { MAX_SEARCH_PARTS, searchPartFile } from '../../src/storage/snapshots/search-schema.ts';
import { ProgressLine, type ProgressState } from '../progress-line.ts';
import { runChildren } from '../writer-pool.ts';
import { finishSearch } from './finish.ts';
import type { SearchPartJob, SearchPartResult, SearchProgress } from './part.ts';

export interface SearchBuildOptions {
  /** Builder processes (default 2: one per core of a small machine). */
  parts?: number;
  /** Progress line on stderr when it is a TTY. */
  progress?: boolean;
  /** The import's children, killed by its signal handler. */
  children: ChildProcess[];
}

export interface SearchSummary {
  /** Wall-clock seconds of the whole step, and of the merge at its end. */
  seconds: number;
  finishSeconds: number;
  /** Bytes of the search files. */
  bytes: number;
  documents: { establishments: number; partners: number };
  /** Per part: seconds per step and peak RSS. */
  parts: SearchPartResult[];
}

export async function buildSearch(
  dir: string,
  tables: Record<string, TableStats>,
  opts: SearchBuildOptions,
): Promise<SearchSummary> {
  const started = performance.now();
  const n = Math.min(MAX_SEARCH_PARTS, Math.max(1, Math.floor(opts.parts ?? 2)));
  const jobs: SearchPartJob[] = Array.from({ length: n }, (_, part) => ({ dir, part, parts: n }));
  const total = (tables.establishments?.rows ?? 0) + (tables.partners?.rows ?? 0);
  const state: ProgressState = { totalCompressed: total, parts: new Map(), unit: 'rows' };
  const line = new ProgressLine(state);
  if (opts.progress) line.start();
  let results: SearchPartResult[];
  try {
    results = await runChildren<SearchPartJob, SearchPartResult, SearchProgress>(
      '__import-search',
      jobs,
      (j) => `search builder ${j.part}`,
      opts.children,
      (i, p) =>
        state.parts.set(String(i), { compressedBytes: p.done, rows: p.done, current: `search ${i}: ${p.step}` }),
    );
  } finally {
    line.stop();
  }
  const merging = performance.now();
  finishSearch(dir, results);
  const done = performance.now();
  const bytes = jobs.reduce((s, j) => s + fs.statSync(path.join(dir, searchPartFile(j.part))).size, 0);
  return {
    seconds: (done - started) / 1000,
    finishSeconds: (done - merging) / 1000,
    bytes,
    documents: {
      establishments: results.reduce((s, r) => s + r.documents.establishments, 0),
      partners: results.reduce((s, r) => s + r.documents.partners, 0),
    },
    parts: results,
  };
}
