import type { CommandModule } from 'yargs';
import { fmtBytes } from '../../../importer/download/transfer-progress.ts';
import { runUpdate } from '../../../importer/download/update.ts';
import { dataDirOf, type GlobalArgs } from '../options.ts';
import type { ImportSummary } from '../../../importer/run.ts';
import { historyLine, historyOption } from './history.ts';
import { cliErrorOf, netOf, sourceOptions, type SourceArgs } from './download.ts';
import { checkPublishOptions, publishTo, withPublishOptions } from './release.ts';

interface Args extends SourceArgs {
  'publish-to'?: string;
  key?: string;
  'keep-downloads': boolean;
  'allow-partial': boolean;
  'skip-history': boolean;
}

export const updateCommand: CommandModule<GlobalArgs, Args> = {
  command: 'update',
  describe: 'download and import the newest month not imported yet (for cron or a systemd timer; see docs/update.md)',
  builder: (y) =>
    withPublishOptions(sourceOptions(y))
      .option('keep-downloads', {
        type: 'boolean',
        default: false,
        describe: 'keep the downloaded zips after a successful import (default: delete them)',
      })
      .option('skip-history', historyOption)
      .option('allow-partial', {
        type: 'boolean',
        default: false,
        describe:
          'download and import a month lacking some of the 37 standard zips (default: refuse, publication may be in progress); the import still refuses an incomplete month',
      }),
  handler: async (argv) => {
    checkPublishOptions(argv);
    const dataDir = dataDirOf(argv);
    const tty = !!process.stderr.isTTY;
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const imported: { summary?: ImportSummary } = {};
    try {
      const r = await runUpdate({
        dataDir,
        source: argv.source,
        regimeSource: argv['regime-source'],
        parallel: argv.parallel,
        net: netOf(argv),
        keepDownloads: argv['keep-downloads'],
        allowPartial: argv['allow-partial'],
        // Off a TTY (cron) per-file success lines are dropped; warnings, retries and errors stay.
        log: (line) => {
          if (tty || !/zip test ok$/.test(line)) log(line);
        },
        importMonth: async (dir, month) => {
          // Loaded on demand: the importer is heavy and only this path needs it.
          const { runImport } = await import('../../../importer/run.ts');
          imported.summary = await runImport({
            dataDir,
            inputs: [dir],
            month,
            progress: tty,
            history: !argv['skip-history'],
            log: tty || argv.verbose ? log : undefined,
          });
          return imported.summary;
        },
      });
      // Published again when up to date too: a publication that failed last time is retried, and
      // one that succeeded costs a few small reads (the same release id, its files already there).
      const publish = () =>
        argv['publish-to'] ? publishTo(dataDir, argv['publish-to'], argv.key!, {}) : Promise.resolve();
      if (r.status === 'up-to-date') {
        console.log(`already up to date (month ${r.month})`);
        await publish();
        return;
      }
      const d = r.download;
      console.log(
        `updated to ${r.month}: snapshot ${r.snapshotId}${r.previous ? ` (previous month ${r.previous})` : ''}; ` +
          `downloaded ${d.files} files, ${fmtBytes(d.fetchedBytes)} in ${d.seconds.toFixed(0)} s (${d.retries} retries); ` +
          `imported in ${r.importSeconds.toFixed(0)} s; zips ${r.downloadsKept ? `kept in ${d.dir}` : 'deleted'}`,
      );
      if (imported.summary) console.log(historyLine(imported.summary.history));
      await publish();
    } catch (err) {
      throw cliErrorOf(err);
    }
  },
};
