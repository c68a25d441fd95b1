// CLI: writes a synthetic Receita Federal monthly dump (see src/demo/generate.ts).
//   npm run make-sample-dump -- --companies 100000 --out data/sample-dump [--seed 1] [--month 2026-09] [--quirks 1]

import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { numberOption } from '../src/cli/options.ts';
import { generateDump } from '../src/demo/generate.ts';
import { isMonth } from '../src/lib/month.ts';

const argv = await yargs(hideBin(process.argv))
  .locale('en')
  .scriptName('make-sample-dump')
  .usage('$0 --companies N --out DIR [--seed S] [--month YYYY-MM] [--quirks RATE]')
  .option('companies', numberOption('companies', { integer: true, min: 1 }, { demandOption: true, describe: 'number of companies (bases) to generate' }))
  .option('out', { type: 'string', demandOption: true, describe: 'output folder (created if missing)' })
  .option('seed', numberOption('seed', { integer: true }, { default: 1, describe: 'PRNG seed; same options give byte-identical output' }))
  .option('month', { type: 'string', default: '2026-09', describe: 'publication month YYYY-MM (drives the member names and dates)' })
  .option('quirks', numberOption('quirks', { min: 0 }, { default: 1, describe: 'multiplier of the real-world quirk rates; 0 for a clean dump' }))
  .check((a) => {
    if (!isMonth(a.month)) throw new Error('--month must be YYYY-MM');
    return true;
  })
  .strict()
  .help()
  .parseAsync();

const t0 = performance.now();
const m = await generateDump({ companies: argv.companies, out: argv.out, seed: argv.seed, month: argv.month, quirkRate: argv.quirks });
const secs = (performance.now() - t0) / 1000;
const mb = (m.totalZipBytes / 1e6).toFixed(1);
console.log(`wrote ${m.files.length} zips (${mb} MB) to ${argv.out} in ${secs.toFixed(1)} s`);
console.log(`counts: ${Object.entries(m.counts).map(([k, v]) => `${k}=${v}`).join(' ')}`);
console.log(`quirks: ${Object.values(m.quirks).reduce((a, b) => a + b, 0)} injected; expected rejects: ${m.expectedRejects}; duplicates: ${m.duplicates.establishments} establishments, ${m.duplicates.companies} companies`);
