import type { CommandModule } from 'yargs';
import type { ImportSummary } from '../../../importer/run.ts';
import { fmtDuration } from '../../../importer/progress-line.ts';
import { historyLine, historyOption } from './history.ts';
import { CliError } from '../errors.ts';
import { dataDirOf, keepSnapshotsOption, type GlobalArgs } from '../options.ts';
import { readAheadWarning } from '../../lib/read-ahead.ts';
import { ALL_TABLES } from '../../storage/snapshots/tables.ts';
import { checkPublishOptions, publishTo, withPublishOptions } from './release.ts';

interface Args extends GlobalArgs {
  inputs: string[];
  month?: string;
  'skip-space-check'?: boolean;
  'skip-search'?: boolean;
  'skip-history'?: boolean;
  keep?: number;
  'allow-partial'?: boolean;
  json?: boolean;
  'publish-to'?: string;
  key?: string;
}

export const importCommand: CommandModule<GlobalArgs, Args> = {
  command: 'import <inputs..>',
  describe: 'import a month of Receita Federal zips (a folder or zip paths) into a new snapshot and publish it',
  builder: (y) =>
    withPublishOptions(y)
      .positional('inputs', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'folder holding the zips, or zip files',
      })
      .option('month', {
        type: 'string',
        describe: 'month of the data, YYYY-MM (default: from the folder name or the files)',
      })
      .option('skip-space-check', {
        type: 'boolean',
        default: false,
        describe: 'start even if the disk looks too small',
      })
      .option('skip-search', {
        type: 'boolean',
        default: false,
        describe: 'do not build the search index (a faster import; the search endpoints answer 503 for this snapshot)',
      })
      .option('skip-history', historyOption)
      .option('keep', keepSnapshotsOption())
      .option('allow-partial', {
        type: 'boolean',
        default: false,
        describe:
          'publish even an incomplete or doubtful month (a group or shard missing; a table empty, mostly rejected lines, or far under the active one; stale files, or the active month again); status says so',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the summary as JSON' })
      .example('$0 import ./downloads/2026-09', 'import a downloaded month')
      .example(
        '$0 import Empresas0.zip Estabelecimentos0.zip --month 2026-09 --allow-partial',
        'import some files only',
      ),
  handler: async (argv) => {
    // Loaded on use: every command module is loaded to build --help, and the import parent's RSS counts.
    checkPublishOptions(argv);
    const { runImport } = await import('../../../importer/run.ts');
    const readAhead = readAheadWarning(dataDirOf(argv));
    if (readAhead !== null) console.error(readAhead);
    let summary: ImportSummary;
    try {
      summary = await runImport({
        dataDir: dataDirOf(argv),
        inputs: argv.inputs,
        month: argv.month,
        progress: process.stderr.isTTY,
        skipSpaceCheck: argv['skip-space-check'],
        search: !argv['skip-search'],
        history: !argv['skip-history'],
        keep: argv.keep,
        allowPartial: argv['allow-partial'],
        log: (l) => console.error(l),
      });
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    if (argv.json) console.log(JSON.stringify(summary, null, 2));
    else printSummary(summary);
    if (argv['publish-to'])
      await publishTo(dataDirOf(argv), argv['publish-to'], argv.key!, {
        snapshot: summary.snapshotId,
        quiet: argv.json,
      });
  },
};

export function printSummary(s: ImportSummary): void {
  const n = (x: number) => x.toLocaleString('en-US');
  const rows = Object.values(s.stats.tables).reduce((a, t) => a + t.rows, 0);
  console.log(`published snapshot ${s.snapshotId} (month ${s.month})${s.previous ? `, replacing ${s.previous}` : ''}`);
  if (s.stats.partial) console.log(`  PARTIAL month, published with --allow-partial: ${s.stats.partial.join('; ')}`);
  console.log(
    `  ${n(rows)} rows in ${fmtDuration(s.stats.seconds)} (${n(Math.round(rows / s.stats.seconds))} rows/s), ${(s.stats.bytes / 1e6).toFixed(1)} MB on disk`,
  );
  for (const [name, t] of Object.entries(s.stats.tables)) {
    // A keyed table keeps the last row of a key; a keyless one only drops exact repeats.
    const dropped = ALL_TABLES.find((d) => d.name === name)?.dropIdentical
      ? 'identical rows dropped'
      : 'duplicates dropped (last wins)';
    const extra = [t.rejected ? `${n(t.rejected)} rejected` : '', t.duplicates ? `${n(t.duplicates)} ${dropped}` : '']
      .filter(Boolean)
      .join(', ');
    console.log(`  ${name.padEnd(16)}${n(t.rows).padStart(14)}${extra ? `  (${extra})` : ''}`);
  }
  if (s.search) {
    const steps = Object.entries(s.search.parts[0]?.seconds ?? {})
      .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
      .join(', ');
    console.log(
      `  search index: ${fmtDuration(s.search.seconds)}, ${(s.search.bytes / 1e6).toFixed(1)} MB, ${s.search.parts.length} parts (part 0: ${steps})`,
    );
  } else console.log('  no search index (--skip-search): the search endpoints answer 503 for this snapshot');
  console.log(`  ${historyLine(s.history)}`);
  if (s.stats.missingFiles.length) console.log(`  missing standard files: ${s.stats.missingFiles.join(', ')}`);
  for (const f of s.rejectsFiles) console.log(`  rejected lines written to ${f}`);
  if (s.pruned.length) console.log(`  removed old snapshots: ${s.pruned.join(', ')}`);
}
