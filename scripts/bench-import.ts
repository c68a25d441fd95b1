// Import benchmark: generates (or reuses) a synthetic month, imports it, prints rows/s per table,
// MB/s of compressed input, peak RSS, bytes per row, and an extrapolation to a full real month.
//   npm run bench:import -- --companies 1000000
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runImport } from '../importer/run.ts';
import { numberOption } from '../src/cli/options.ts';
import { generateDump } from '../src/demo/generate.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .option('companies', numberOption('companies', { integer: true, min: 1 }, { default: 1_000_000 }))
  .option('seed', numberOption('seed', { integer: true }, { default: 1 }))
  .option('dump-dir', { type: 'string', describe: 'where generated dumps are cached', default: '.cache/bench' })
  .option('keep-data', { type: 'boolean', default: false })
  .option('search', { type: 'boolean', default: true, describe: 'build the search index (--no-search: without)' })
  .strict()
  .parse();

// A full month, for the extrapolation (docs/receita-dump.md §2, 2026 numbers).
const FULL_MONTH: Record<string, number> = {
  establishments: 70e6,
  companies: 67e6,
  partners: 27.5e6,
  simples: 45e6,
  regimes: 10.6e6,
};

const dumpDir = path.resolve(argv['dump-dir'], `dump-${argv.companies}-${argv.seed}`);
if (!fs.existsSync(path.join(dumpDir, 'manifest.json'))) {
  const t = performance.now();
  console.log(`generating ${argv.companies.toLocaleString('en-US')} companies into ${dumpDir} ...`);
  await generateDump({ companies: argv.companies, out: dumpDir, seed: argv.seed });
  console.log(`  generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const zipBytes = fs
  .readdirSync(dumpDir)
  .filter((f) => f.endsWith('.zip'))
  .reduce((s, f) => s + fs.statSync(path.join(dumpDir, f)).size, 0);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-bench-'));
try {
  const s = await runImport({
    dataDir,
    inputs: [dumpDir],
    skipSpaceCheck: true,
    synthetic: true,
    measureTableBytes: true,
    progress: process.stderr.isTTY,
    search: argv.search,
  });
  const secs = s.stats.seconds;
  const rows = Object.values(s.stats.tables).reduce((a, t) => a + t.rows + t.duplicates, 0);
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(
    `\nimport of ${n(argv.companies)} companies: ${secs.toFixed(1)} s wall, ${n(rows / secs)} rows/s overall, ${(zipBytes / 1e6 / secs).toFixed(1)} MB/s of zips (${(zipBytes / 1e6).toFixed(0)} MB)`,
  );
  console.log('table            rows       load s    rows/s     bytes/row   MB');
  const est = { establishments: { rows: 0, load: 0 }, companies: { rows: 0, load: 0 } };
  for (const [name, t] of Object.entries(s.stats.tables)) {
    const loaded = t.rows + t.duplicates;
    const rate = t.seconds ? loaded / t.seconds : 0;
    console.log(
      `${name.padEnd(14)}${n(t.rows).padStart(12)}${(t.seconds ?? 0).toFixed(1).padStart(10)}${n(rate).padStart(11)}` +
        `${(t.bytes && t.rows ? (t.bytes / t.rows).toFixed(0) : '-').padStart(12)}${((t.bytes ?? 0) / 1e6).toFixed(1).padStart(9)}`,
    );
    const w = name === 'establishments' ? est.establishments : est.companies;
    w.rows += loaded;
    if (FULL_MONTH[name] && rate) w.load += FULL_MONTH[name] / rate;
  }
  console.log(`snapshot: ${(s.stats.bytes / 1e6).toFixed(1)} MB (${(s.stats.bytes / zipBytes).toFixed(2)}× the zips)`);
  const all = [s.peakRssBytes.parent, ...s.peakRssBytes.writers];
  const mib = (b: number) => (b / 2 ** 20).toFixed(0);
  console.log(
    `peak RSS MiB: importer ${mib(all[0])}, writers ${all.slice(1).map(mib).join(' + ')} (sum ${mib(all.reduce((a, b) => a + b, 0))})`,
  );
  if (s.search) {
    const parts = s.search.parts.map(
      (p, i) =>
        `part ${i}: ${Object.entries(p.seconds)
          .map(([k, v]) => `${k} ${v.toFixed(1)}`)
          .join(', ')} s, ${mib(p.maxRssBytes)} MiB`,
    );
    console.log(
      `search index: ${s.search.seconds.toFixed(1)} s wall (merge ${s.search.finishSeconds.toFixed(1)} s), ${(s.search.bytes / 1e6).toFixed(1)} MB (${(s.search.bytes / (s.stats.bytes - s.search.bytes)).toFixed(2)}× the rest)`,
    );
    for (const line of parts) console.log(`  ${line}`);
  }
  // Full month per writer: load at the measured per-table rates, index/de-dup time scaled by rows.
  const fullRows = {
    establishments: FULL_MONTH.establishments,
    companies: FULL_MONTH.companies + FULL_MONTH.partners + FULL_MONTH.simples + FULL_MONTH.regimes,
  };
  const lines = s.writers.map((w) => {
    const e = est[w.file];
    const total = e.load + w.index * (fullRows[w.file] / Math.max(1, e.rows));
    return {
      file: w.file,
      total,
      text: `${w.file}: load ${(e.load / 60).toFixed(1)} min + index ${((total - e.load) / 60).toFixed(1)} min (here ${w.load.toFixed(1)} s + ${w.index.toFixed(1)} s)`,
    };
  });
  const worst = Math.max(...lines.map((l) => l.total));
  const scale = FULL_MONTH.establishments / Math.max(1, s.stats.tables.establishments.rows);
  console.log(
    `extrapolated full month (70 M establishments, 67 M companies, 27.5 M partners, 45 M Simples, 10.6 M regime rows): ≈ ${(worst / 60).toFixed(1)} min`,
  );
  for (const l of lines) console.log(`  ${l.text}`);
  console.log(`  snapshot ≈ ${((s.stats.bytes / 1e9) * scale).toFixed(1)} GB`);
} finally {
  if (!argv['keep-data']) fs.rmSync(dataDir, { recursive: true, force: true });
  else console.log(`data kept in ${dataDir}`);
}
