// `cnpj-api app-state copy`: moving a node's app state into fleet mode's PostgreSQL and back
// (docs/fleet.md, "Moving in and out").
import type { CommandModule } from 'yargs';
import { copyAppStateBetween, CopyRefused } from '../../storage/app/copy.ts';
import { DATABASE_URL_ENV, databaseUrlProblem, redactDatabaseUrl } from '../../storage/app/store.ts';
import { dataPaths } from '../../lib/config.ts';
import { CliError } from '../errors.ts';
import { dataDirOf, type GlobalArgs } from '../options.ts';

interface CopyArgs extends GlobalArgs {
  to?: string;
  from?: string;
  replace?: boolean;
}

function urlOption(value: unknown, flag: string): string {
  if (Array.isArray(value)) throw new CliError(`${flag} given more than once`);
  const url = String(value);
  const problem = databaseUrlProblem(url);
  if (problem) throw new CliError(`invalid ${flag} "${redactDatabaseUrl(url)}": ${problem}`);
  return url;
}

const copy: CommandModule<GlobalArgs, CopyArgs> = {
  command: 'copy',
  describe:
    'copy accounts, users, tokens, plans, usage, sessions, watchlists and webhooks from app.db into an empty PostgreSQL (--to), or from a PostgreSQL into an empty app.db (--from); stop the servers first',
  builder: (y) =>
    y
      .option('to', {
        type: 'string',
        describe: "PostgreSQL to fill from this data dir's app.db (a new, empty database)",
      })
      .option('from', {
        type: 'string',
        describe: "PostgreSQL to copy into this data dir's app.db (which must hold no accounts yet)",
      })
      .option('replace', {
        type: 'boolean',
        default: false,
        describe:
          "discard the app state the target already holds instead of refusing (e.g. back out into a node's app.db that still has its state from before fleet mode; the registry pointer is kept)",
      })
      .conflicts('to', 'from')
      .check((argv) => {
        if (argv.to === undefined && argv.from === undefined) throw new CliError('give --to <url> or --from <url>');
        return true;
      })
      .example('$0 app-state copy --to postgres://cnpj@db/cnpj', 'into fleet mode')
      .example('$0 app-state copy --from postgres://cnpj@db/cnpj', 'back out'),
  handler: async (argv) => {
    const dataDir = dataDirOf(argv);
    const toPostgres = argv.to !== undefined;
    const url = toPostgres ? urlOption(argv.to, '--to') : urlOption(argv.from, '--from');
    const appDb = dataPaths(dataDir).appDb;
    const [from, to] = toPostgres ? [appDb, redactDatabaseUrl(url)] : [redactDatabaseUrl(url), appDb];
    console.log(`copying app state from ${from} to ${to}`);
    const started = performance.now();
    let result;
    try {
      result = await copyAppStateBetween(dataDir, url, toPostgres ? 'to-postgres' : 'from-postgres', {
        replace: argv.replace,
        onTable: (name, rows) => console.log(`  ${name.padEnd(20)} ${rows.toLocaleString('en-US').padStart(12)} rows`),
      });
    } catch (err) {
      if (err instanceof CopyRefused) throw new CliError(`${err.message}; nothing was copied`);
      const e = err as Error & { code?: string };
      throw new CliError(`copy failed, nothing was copied: ${e.message || e.code}`);
    }
    const total = result.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `copied ${total.toLocaleString('en-US')} rows in ${result.tables.length} tables in ${((performance.now() - started) / 1000).toFixed(1)} s (one transaction)`,
    );
    console.log(
      toPostgres
        ? `next: start every node with --database-url (or ${DATABASE_URL_ENV}) pointing at this database; app.db keeps its copy, unused`
        : 'next: start this node without --database-url; the PostgreSQL database keeps its copy, unused by this node',
    );
  },
};

export const appStateCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'app-state',
  describe: 'move app state (accounts, tokens, usage, ...) between app.db and a PostgreSQL for fleet mode',
  builder: (y) => y.command(copy).demandCommand(1, 'Give a subcommand; see app-state --help.'),
  handler: () => {},
};
