import type { Argv, CommandModule } from 'yargs';
import { listPlans, setPlan } from '../../domain/accounts/plans.ts';
import { CliError } from '../errors.ts';
import { numberOption, type GlobalArgs } from '../options.ts';
import { printTable, withApp } from './app-helpers.ts';

interface ListArgs extends GlobalArgs {
  json?: boolean;
}
interface SetArgs extends GlobalArgs {
  name: string;
  quota?: number;
  api?: string;
  watchlistLimit?: number;
}

const list: CommandModule<GlobalArgs, ListArgs> = {
  command: 'list',
  describe: 'list plans with their monthly quota, whether the API is included and the watchlist limit',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const plans = await listPlans(app);
      if (argv.json) return void console.log(JSON.stringify(plans, null, 2));
      printTable(
        ['PLAN', 'CALLS/MONTH', 'API', 'WATCHLIST'],
        plans.map((p) => [p.name, p.monthlyQuota, p.apiIncluded ? 'yes' : 'no', p.watchlistLimit]),
      );
    }),
};

const set: CommandModule<GlobalArgs, SetArgs> = {
  command: 'set <name>',
  describe: 'change a plan (or create it, which needs --quota); applies from the next request',
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'plan name' })
      .option('quota', numberOption('quota', { integer: true, min: 0 }, { describe: 'calls per month (integer >= 0)' }))
      .option('api', { type: 'string', describe: 'yes or no: whether the plan includes API access' })
      .option(
        'watchlist-limit',
        numberOption(
          'watchlist-limit',
          { integer: true, min: 0 },
          { describe: 'CNPJs an account may watch (integer >= 0)' },
        ),
      ),
  handler: (argv) =>
    withApp(argv, async (app) => {
      if (argv.quota === undefined && argv.api === undefined && argv.watchlistLimit === undefined)
        throw new CliError('Nothing to change: give --quota, --api and/or --watchlist-limit.');
      if (argv.api !== undefined && argv.api !== 'yes' && argv.api !== 'no')
        throw new CliError(`--api must be yes or no, not "${argv.api}".`);
      const p = await setPlan(app, argv.name, {
        monthlyQuota: argv.quota,
        apiIncluded: argv.api === undefined ? undefined : argv.api === 'yes',
        watchlistLimit: argv.watchlistLimit,
      });
      console.log(
        `plan ${p.name}: ${p.monthlyQuota} calls/month, API ${p.apiIncluded ? 'included' : 'not included'}, watchlist ${p.watchlistLimit} CNPJs`,
      );
    }),
};

export const plansCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'plans',
  describe: 'show and edit plans (monthly quota, API included, watchlist limit)',
  builder: (y: Argv<GlobalArgs>) =>
    y.command(list).command(set).demandCommand(1, 'Choose a plans subcommand; see --help.'),
  handler: () => {},
};
