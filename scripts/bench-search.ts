// Search engine benchmark (domain/search, no HTTP): the query shapes of issue #14 on an imported
// data dir, p50/p99 of the first page (limit 20), counts and partner pages, warm cache.
//   npm run bench:search -- --data-dir /path/to/data [--runs 200]
// Values are drawn from the snapshot itself (seeded), so every query has something to find.
// --cold: before each run, the snapshot is closed (unmapped), the OS cache of its files dropped
// (`dd iflag=nocache count=0` per file: no root needed) and the snapshot opened again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { numberOption } from '../src/cli/options.ts';
import { dataPaths } from '../src/lib/config.ts';
import { CompanyRegistry } from '../src/domain/company/lookup.ts';
import { SearchIndex, type CompanyFilters, type PartnerFilters } from '../src/domain/search/index.ts';
import { PLAN_DEFAULTS, PREFIX_FALLBACK_DOCS, PREFIX_QUERY_DOCS } from '../src/domain/search/prefix.ts';
import { Rng } from '../src/demo/prng.ts';
import { openSqlite } from '../src/storage/sqlite.ts';
import { attachSnapshot } from '../src/storage/snapshots/attach.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .option('data-dir', { type: 'string', demandOption: true })
  .option('runs', numberOption('runs', { integer: true, min: 1 }, { default: 200 }))
  .option('seed', numberOption('seed', { integer: true }, { default: 1 }))
  .option('slowest', { type: 'boolean', default: false, describe: "print the values of each shape's slowest run" })
  .option('cold', {
    type: 'boolean',
    default: false,
    describe: 'drop the OS cache of the snapshot files before each run',
  })
  .option(
    'prefix-query-docs',
    numberOption(
      'prefix-query-docs',
      { integer: true, min: 0 },
      {
        default: PREFIX_QUERY_DOCS,
        describe:
          'a q prefix of many words held by at most this many establishments is looked up as word* (0: never at once)',
      },
    ),
  )
  .option(
    'prefix-fallback-docs',
    numberOption(
      'prefix-fallback-docs',
      { integer: true, min: 0 },
      {
        default: PREFIX_FALLBACK_DOCS,
        describe:
          'a checked q prefix rare among the candidates goes on as word* when at most this many establishments hold it (0: never)',
      },
    ),
  )
  .strict()
  .parse();

const open = () => new CompanyRegistry({ dataDir: argv['data-dir'], contacts: () => [], pollMs: 0, log: () => {} });
const engine = (r: CompanyRegistry) => {
  if (r.snapshot?.search == null) throw new Error('no snapshot with a search index in this data dir');
  return new SearchIndex(r.snapshot, {
    ...PLAN_DEFAULTS,
    prefixQueryDocs: argv['prefix-query-docs'],
    prefixFallbackDocs: argv['prefix-fallback-docs'],
  });
};
let registry = open();
let search = engine(registry);
// A second connection to draw values from the data (what a client would ask for).
const rng = new Rng(argv.seed);
const dir = path.join(dataPaths(argv['data-dir']).registryDir, registry.info!.id);
const data = openSqlite(':memory:');
attachSnapshot(data, dir);
data.prepare('ATTACH DATABASE ? AS srch').run(path.join(dir, 'search.db'));
const pick = <T>(sql: string, n: number): T[] => {
  const rows = data.prepare(sql).pluck().all() as T[];
  if (!rows.length) throw new Error(`nothing for ${sql}`);
  return Array.from({ length: n }, () => rows[rng.int(rows.length)]);
};

const N = argv.runs;
const ufs = pick<string>(
  `SELECT uf FROM srch.agg_uf WHERE uf IS NOT NULL GROUP BY uf ORDER BY sum(n) DESC LIMIT 10`,
  N,
);
const words = pick<string>(
  `SELECT term FROM srch.vocabulary WHERE length(term) BETWEEN 5 AND 12 AND term NOT GLOB '*[0-9]*' LIMIT 200000`,
  N * 5,
);
const cnae7 = pick<number>(`SELECT cnae FROM srch.agg_cnae GROUP BY cnae ORDER BY sum(n) DESC LIMIT 300`, N);
const muni = pick<number>(
  `SELECT municipio FROM srch.agg_municipio WHERE municipio IS NOT NULL GROUP BY municipio ORDER BY sum(n) DESC LIMIT 500`,
  N,
);
const sits = ['ativa', 'baixada', 'inapta'] as const;
const portes = [1, 3, 5];
const common = ['comercio', 'servicos', 'ltda', 'de', 'transportes', 'representacoes'];
// Rare words: vocabulary words in at most 100 documents.
const rare: string[] = [];
for (const w of words) {
  if (rare.length === N) break;
  const c = search.count({ q: w }, { bound: 100 });
  if (c.exact && c.count > 0 && c.count <= 100 && !rare.includes(w)) rare.push(w);
}
const cnpjAt = (f: CompanyFilters, offset: number) => {
  let after: string | null = null;
  for (let i = 0; i < offset / 100; i++) after = search.search(f, { limit: 100, after }).next;
  return after;
};

/** Cold: the snapshot unmapped, its files dropped from the OS cache, opened again. */
function dropCaches(): void {
  registry.close();
  for (const f of fs.readdirSync(dir)) {
    const r = spawnSync('dd', [`if=${path.join(dir, f)}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`dd could not drop the cache of ${f}`);
  }
  registry = open();
  search = engine(registry);
}

/** p50/p99/max of `run` over N runs; `--slowest` also prints the arguments of the slowest run. */
function measure<A>(label: string, args: (i: number) => A, run: (a: A) => unknown): void {
  const times: [number, number][] = [];
  for (let i = 0; i < N; i++) {
    const a = args(i);
    if (argv.cold) dropCaches();
    const t = performance.now();
    run(a);
    times.push([performance.now() - t, i]);
  }
  times.sort((a, b) => a[0] - b[0]);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))][0].toFixed(2);
  console.log(
    `${label.padEnd(44)} p50 ${q(0.5).padStart(8)} ms   p99 ${q(0.99).padStart(8)} ms   max ${q(1).padStart(8)} ms`,
  );
  if (argv.slowest) console.log(`  slowest: ${JSON.stringify(args(times[times.length - 1][1]))}`);
}

const page = (f: CompanyFilters, after: string | null = null) => search.search(f, { limit: 20, after });
console.log(
  `snapshot ${registry.info?.id}: ${registry.info?.counts.establishments?.toLocaleString('en-US')} establishments; ${N} runs each, ${argv.cold ? 'cold (OS cache dropped before each run)' : 'warm'}`,
);
const company = (f: (i: number) => CompanyFilters) => [f, (a: CompanyFilters) => page(a)] as const;
const counted = (f: (i: number) => CompanyFilters, bound?: number) =>
  [f, (a: CompanyFilters) => search.count(a, { bound })] as const;
const partner = (f: (i: number) => PartnerFilters) =>
  [f, (a: PartnerFilters) => search.partners(a, { limit: 20 })] as const;
const cnae = (i: number, digits: number) => String(cnae7[i]).padStart(7, '0').slice(0, digits);
measure('one rare word', ...company((i) => ({ q: rare[i % rare.length] })));
measure('two common words + uf', ...company((i) => ({ q: `${common[i % 3]} ${common[3 + (i % 3)]}`, uf: [ufs[i]] })));
measure('cnae prefix (4 digits) + municipio', ...company((i) => ({ cnae: [cnae(i, 4)], municipio: [muni[i]] })));
measure(
  'uf + situacao_cadastral + porte',
  ...company((i) => ({ uf: [ufs[i]], situacao_cadastral: [sits[i % 3]], porte: [portes[i % 3]] })),
);
measure('one CNAE nationwide (7 digits)', ...company((i) => ({ cnae: [cnae(i, 7)] })));
measure('one CNAE division + secondary', ...company((i) => ({ cnae: [cnae(i, 2)], cnae_secundario: true })));
measure('last word as a prefix (3 letters) + uf', ...company((i) => ({ q: words[i].slice(0, 3), uf: [ufs[i]] })));
measure(
  'inicio_atividade range (cut months) + uf',
  ...company((i) => ({ uf: [ufs[i]], inicio_atividade_min: '2019-03-15', inicio_atividade_max: '2021-08-20' })),
);
const deep = cnpjAt({ uf: ['SP'] }, 20_000);
measure(
  'page 1,000 of uf=SP (limit 20)',
  () => deep,
  (after) => page({ uf: ['SP'] }, after),
);
measure('count: situacao ativa (nationwide)', ...counted(() => ({ situacao_cadastral: ['ativa'] })));
measure('count: uf + situacao', ...counted((i) => ({ uf: [ufs[i]], situacao_cadastral: ['ativa'] })));
measure('count: cnae division + uf (count tables)', ...counted((i) => ({ cnae: [cnae(i, 2)], uf: [ufs[i]] })));
measure('count: cnae subclass + municipio (FTS)', ...counted((i) => ({ cnae: [cnae(i, 7)], municipio: [muni[i]] })));
measure('count: q common word (bound 10,000)', ...counted((i) => ({ q: common[i % 3] }), 10_000));
measure('partner by name (2 words)', ...partner((i) => ({ nome: `${words[i]} ${words[N + i]}` })));
measure('partner by one word', ...partner((i) => ({ nome: words[2 * N + i] })));
data.close();
registry.close();
