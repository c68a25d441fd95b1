// CLI: writes a synthetic Receita Federal monthly dump (see src/demo/generate.ts).
//   npm run make-sample-dump -- --companies 100000 --out data/sample-dump [--seed 1] [--month 2026-09] [--quirks 1]
//   npm run make-sample-dump -- --evolve-from data/sample-dump --out data/sample-dump-2 [--seed S]

import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { numberOption } from '../src/cli/options.ts';
import { generateDump } from '../src/demo/generate.ts';
import { isMonth } from '../src/lib/month.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .scriptName('make-sample-dump')
  .usage(
    '$0 --companies N --out DIR [--seed S] [--month YYYY-MM] [--quirks RATE]\n$0 --evolve-from DIR --out DIR2 [--seed S]',
  )
  .option(
    'companies',
    numberOption('companies', { integer: true, min: 1 }, { describe: 'number of companies (bases) to generate' }),
  )
  .option('out', { type: 'string', demandOption: true, describe: 'output folder (created if missing)' })
  .option(
    'seed',
    numberOption(
      'seed',
      { integer: true },
      {
        describe:
          "PRNG seed (default 1; with --evolve-from, of the new month's changes, default derived from DIR's); same options give byte-identical output",
      },
    ),
  )
  .option('evolve-from', {
    type: 'string',
    describe:
      "a synthetic dump's folder: write the month after it (openings, closings, moves, status and partner changes); --companies, --month and --quirks come from its manifest",
  })
  .option('month', {
    type: 'string',
    default: '2026-09',
    describe: 'publication month YYYY-MM (drives the member names and dates)',
  })
  .option(
    'quirks',
    numberOption(
      'quirks',
      { min: 0 },
      { default: 1, describe: 'multiplier of the real-world quirk rates; 0 for a clean dump' },
    ),
  )
  .check((a) => {
    if (!isMonth(a.month)) throw new Error('--month must be YYYY-MM');
    if (a.evolveFrom === undefined && a.companies === undefined)
      throw new Error('--companies is required (unless --evolve-from)');
    if (a.evolveFrom !== undefined && a.evolveFrom === a.out) throw new Error('--out must differ from --evolve-from');
    return true;
  })
  .strict()
  .help()
  .parseAsync();

const t0 = performance.now();
const m = await generateDump({
  companies: argv.companies ?? 0,
  out: argv.out,
  seed: argv.seed,
  month: argv.month,
  quirkRate: argv.quirks,
  evolveFrom: argv.evolveFrom,
});
const secs = (performance.now() - t0) / 1000;
const mb = (m.totalZipBytes / 1e6).toFixed(1);
console.log(`wrote ${m.files.length} zips (${mb} MB) to ${argv.out} in ${secs.toFixed(1)} s`);
console.log(
  `counts: ${Object.entries(m.counts)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')}`,
);
console.log(
  `quirks: ${Object.values(m.quirks).reduce((a, b) => a + b, 0)} injected; expected rejects: ${m.expectedRejects}; duplicates: ${m.duplicates.establishments} establishments, ${m.duplicates.companies} companies`,
);
if (m.changes) {
  const parts = Object.entries(m.changes)
    .filter(([, c]) => c.count)
    .map(([k, c]) => `${k}=${c.count}`);
  console.log(`${m.month} evolved from ${m.evolvedFrom!.month}: ${parts.join(' ')}`);
}
