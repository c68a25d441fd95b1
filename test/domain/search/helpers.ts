// Test helpers of the search: a month imported into a temp data dir, its registry and search
// engine, the oracle over the same snapshot; everything removed by close().
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runImport, type ImportOptions, type ImportSummary } from '../../../importer/run.ts';
import { CompanyRegistry } from '../../../src/domain/company/lookup.ts';
import { searchOf, type SearchIndex } from '../../../src/domain/search/index.ts';
import { Oracle } from './oracle.ts';

export interface Imported {
  dataDir: string;
  summary: ImportSummary;
  registry: CompanyRegistry;
  search: SearchIndex;
  oracle: Oracle;
  close(): void;
}

export async function importMonth(inputs: string[], opts: Partial<ImportOptions> = {}): Promise<Imported> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-search-'));
  try {
    const summary = await runImport({ dataDir, inputs, month: '2026-09', allowPartial: true, ...opts });
    const registry = new CompanyRegistry({ dataDir, contacts: () => [], pollMs: 0, log: () => {} });
    const search = searchOf(registry.snapshot);
    if (search === null) throw new Error('search unavailable after the import');
    const oracle = new Oracle(summary.dir);
    return {
      dataDir,
      summary,
      registry,
      search,
      oracle,
      close() {
        oracle.close();
        registry.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
}

/** Every CNPJ of a search, page by page (checking that no page repeats or skips one). */
export function allPages(
  search: SearchIndex,
  filters: Parameters<SearchIndex['search']>[0],
  limit: number,
  ms?: number,
): { cnpjs: string[]; pages: number } {
  const cnpjs: string[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const page = search.search(filters, { limit, after, ms });
    pages++;
    cnpjs.push(...page.cnpjs);
    if (page.next === null) return { cnpjs, pages };
    if (pages > 10_000) throw new Error('runaway paging');
    after = page.next;
  }
}
