// `cnpj-api history`: the recorded months of history.db (docs/history.md) and recording a kept
// month by hand (one whose recording failed or was skipped). Also the import's history line.
import type { Argv, CommandModule } from 'yargs';
import { tipoCounts } from '../../../importer/history/counts.ts';
import type { RecordResult } from '../../../importer/history/record.ts';
import type { HistorySummary } from '../../../importer/history/step.ts';
import { dataPaths } from '../../lib/config.ts';
import { isMonth } from '../../lib/month.ts';
import { CliError } from '../errors.ts';
import { dataDirOf, type GlobalArgs } from '../options.ts';
import { printTable } from './app-helpers.ts';
import { openAppDb } from '../../storage/app/sqlite.ts';

export const historyOption = {
  type: 'boolean',
  default: false,
  describe: "do not record the month's differences in history.db (`cnpj-api history record` can do it later)",
} as const;

const n = (x: number) => x.toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB (${n(bytes)} bytes)`;

function countsText(counts: Record<string, number>): string {
  const t = tipoCounts(counts);
  return `${n(t.total)} changes (${n(t.abertura)} abertura, ${n(t.encerramento)} encerramento, ${n(t.alteracao)} alteracao)`;
}

function resultText(r: RecordResult): string {
  if (!r.recorded) return `nothing recorded for ${r.month}: ${r.reason}`;
  return `${r.month} ${r.replaced ? 'recorded again (replaced)' : 'recorded'} against ${r.fromMonth}: ${countsText(r.counts)}, compared in ${r.seconds.toFixed(1)} s`;
}

/** The import summary's line about the history step. */
export function historyLine(h: HistorySummary | null): string {
  if (h === null)
    return 'history: skipped (--skip-history); `cnpj-api history record --month <month>` records it later';
  if (h.result === null) return `history: FAILED (${h.error}); the month has no differences recorded`;
  if (!h.result.recorded) return `history: ${h.result.reason}`;
  return `history: ${resultText(h.result)}; the publish waited ${h.waitSeconds.toFixed(1)} s for it`;
}

interface StatusArgs extends GlobalArgs {
  json?: boolean;
}
interface RecordArgs extends GlobalArgs {
  month: string;
}

const status: CommandModule<GlobalArgs, StatusArgs> = {
  command: 'status',
  describe: "list the recorded months: compared with, changes per tipo, seconds; and history.db's size",
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  // The history modules are loaded on use: every command module is loaded to build --help.
  handler: async (argv) => {
    const { historyBytes, recordedMonths } = await import('../../../importer/history/months.ts');
    const dataDir = dataDirOf(argv);
    const months = recordedMonths(dataDir);
    const bytes = historyBytes(dataDir);
    if (argv.json)
      return void console.log(JSON.stringify({ file: dataPaths(dataDir).historyDb, bytes, months }, null, 2));
    console.log(
      `history: ${dataPaths(dataDir).historyDb}, ${mb(bytes)}, ${months.length} month${months.length === 1 ? '' : 's'} recorded`,
    );
    if (!months.length)
      return void console.log('no month recorded yet (each import records its differences with the month before)');
    printTable(
      ['MONTH', 'COMPARED WITH', 'ABERTURA', 'ENCERRAMENTO', 'ALTERACAO', 'SECONDS', 'RECORDED AT'],
      months.map((m) => {
        const t = tipoCounts(m.counts);
        return [
          m.month,
          m.fromMonth,
          n(t.abertura),
          n(t.encerramento),
          n(t.alteracao),
          m.seconds.toFixed(1),
          m.recordedAt,
        ];
      }),
    );
  },
};

const record: CommandModule<GlobalArgs, RecordArgs> = {
  command: 'record',
  describe:
    "record a kept month's differences against the kept month before it (when its recording failed or was skipped)",
  builder: (y) => y.option('month', { type: 'string', demandOption: true, describe: 'the month, YYYY-MM' }),
  // Only this node's registry pointer: app.db even in fleet mode.
  handler: async (argv) => {
    if (!isMonth(argv.month)) throw new CliError(`invalid month "${argv.month}": use YYYY-MM`);
    const dataDir = dataDirOf(argv);
    const { recordKeptMonth } = await import('../../../importer/history/months.ts');
    const { listSnapshots } = await import('../../storage/snapshots/records.ts');
    const { sqlite, close } = await openAppDb(dataDir);
    let r: RecordResult;
    try {
      r = recordKeptMonth(dataDir, listSnapshots(sqlite, dataPaths(dataDir).registryDir), argv.month);
    } catch (err) {
      throw new CliError((err as Error).message);
    } finally {
      await close();
    }
    console.log(resultText(r));
    if (!r.recorded) process.exitCode = 1;
  },
};

export const historyCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'history',
  describe: 'the monthly change history (history.db): recorded months, record a month by hand',
  builder: (y: Argv<GlobalArgs>) =>
    y.command(status).command(record).demandCommand(1, 'Choose a history subcommand; see --help.'),
  handler: () => {},
};
