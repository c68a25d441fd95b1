// The import's search step alone, timed on an imported month: rebuilds the search files of the
// active snapshot of --data-dir in place (the import does the same in its build folder before
// the publish) and prints the seconds of each step per part, the size and the peak RSS. For
// measuring changes to the build on a full-size month without reloading its 224 M rows.
// A developer tool: it rewrites files of a published snapshot, so use a data dir of its own.
//   npm run bench:search-build -- --data-dir DIR [--parts 2]
import fs from 'node:fs';
import path from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { numberOption } from '../src/cli/options.ts';
import { dataPaths } from '../src/lib/config.ts';
import { buildSearch } from '../importer/search/build.ts';
import { openAppSqlite } from '../src/storage/app/sqlite.ts';
import { activeSnapshot } from '../src/storage/snapshots/records.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .option('data-dir', { type: 'string', demandOption: true })
  .option('parts', numberOption('parts', { integer: true, min: 1 }, { default: 2 }))
  .strict()
  .parse();

const paths = dataPaths(argv['data-dir']);
const app = openAppSqlite(argv['data-dir'], 'reader');
const snap = activeSnapshot(app, paths.registryDir);
app.close();
if (!snap) throw new Error(`no active snapshot in ${argv['data-dir']}`);

// The search files of the snapshot (search.db, search-N.db, scratch files), removed first.
const searchFile = /^(search(-\d+)?\.db|\.search-.*)$/;
for (const f of fs.readdirSync(snap.dir)) if (searchFile.test(f)) fs.rmSync(path.join(snap.dir, f), { force: true });

console.log(`building the search index of ${snap.id} (${snap.month}) in ${argv.parts} parts ...`);
const summary = await buildSearch(snap.dir, snap.stats.tables, {
  parts: argv.parts,
  progress: process.stderr.isTTY,
  children: [],
});
const gb = (n: number) => `${(n / 1e9).toFixed(2)} GB`;
console.log(
  `done in ${summary.seconds.toFixed(1)} s (merge ${summary.finishSeconds.toFixed(1)} s), ${gb(summary.bytes)}; documents ${JSON.stringify(summary.documents)}`,
);
summary.parts.forEach((p, i) => {
  const steps = Object.entries(p.seconds)
    .map(([k, s]) => `${k} ${s.toFixed(1)} s`)
    .join(', ');
  console.log(`part ${i}: ${steps}; peak RSS ${Math.round(p.maxRssBytes / 2 ** 20)} MiB`);
});
