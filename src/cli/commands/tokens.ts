import type { Argv, CommandModule } from 'yargs';
import { requireAccount } from '../../domain/accounts/accounts.ts';
import { activateToken, createToken, deactivateToken, listTokens } from '../../domain/accounts/tokens.ts';
import type { GlobalArgs } from '../options.ts';
import { idArg, printTable, withApp } from './app-helpers.ts';

interface CreateArgs extends GlobalArgs {
  account: string;
  name: string;
  expires: string;
  json?: boolean;
}
interface ListArgs extends GlobalArgs {
  account: string;
  json?: boolean;
}
interface IdArgs extends GlobalArgs {
  id: string;
}

const create: CommandModule<GlobalArgs, CreateArgs> = {
  command: 'create',
  describe: 'create an API token and print it alone on stdout (it is shown only this once)',
  builder: (y) =>
    y
      .option('account', { type: 'string', demandOption: true, describe: 'account name' })
      .option('name', { type: 'string', demandOption: true, describe: 'label, e.g. production' })
      .option('expires', {
        type: 'string',
        default: 'never',
        describe: '30d (days from today), YYYY-MM-DD (last valid day, São Paulo time) or never',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print {"id","token"} as JSON' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const account = await requireAccount(app, argv.account);
      const { id, token } = await createToken(app, {
        accountId: account.id,
        name: argv.name,
        expires: argv.expires,
        createdBy: 'cli',
      });
      // Alone on stdout so scripts can capture it: TOKEN=$(cnpj-api tokens create ...)
      console.log(argv.json ? JSON.stringify({ id, token }) : token);
    }),
};

const list: CommandModule<GlobalArgs, ListArgs> = {
  command: 'list',
  describe: 'list the tokens of an account with their state (the secrets are never shown again)',
  builder: (y) =>
    y
      .option('account', { type: 'string', demandOption: true, describe: 'account name' })
      .option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const tokens = await listTokens(app, (await requireAccount(app, argv.account)).id);
      if (argv.json) return void console.log(JSON.stringify(tokens, null, 2));
      if (!tokens.length) return void console.log('no tokens');
      printTable(
        ['ID', 'NAME', 'PREFIX', 'STATE', 'EXPIRES', 'CREATED', 'BY', 'LAST USED'],
        tokens.map((t) => [
          t.id,
          t.name,
          `${t.displayPrefix}…`,
          t.state,
          t.expiresAt ?? 'never',
          t.createdAt.slice(0, 10),
          t.createdBy,
          t.lastUsedAt?.slice(0, 16).replace('T', ' ') ?? '-',
        ]),
      );
    }),
};

const activate: CommandModule<GlobalArgs, IdArgs> = {
  command: 'activate <id>',
  describe: 'accept a deactivated token again (not possible for tokens invalidated by a suspension)',
  builder: (y) => y.positional('id', { type: 'string', demandOption: true, describe: 'token id (see `tokens list`)' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const t = await activateToken(app, idArg(argv.id, 'Token ID'));
      console.log(`token ${t.id} (${t.name}) is ${t.state === 'active' ? 'active' : `enabled but ${t.state}`}`);
    }),
};

const deactivate: CommandModule<GlobalArgs, IdArgs> = {
  command: 'deactivate <id>',
  describe: 'refuse a token from the next request on (other tokens are unaffected)',
  builder: (y) => y.positional('id', { type: 'string', demandOption: true, describe: 'token id (see `tokens list`)' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const t = await deactivateToken(app, idArg(argv.id, 'Token ID'));
      console.log(`token ${t.id} (${t.name}) deactivated`);
    }),
};

export const tokensCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'tokens',
  describe: 'manage API tokens (create, list, activate, deactivate)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .command(create)
      .command(list)
      .command(activate)
      .command(deactivate)
      .demandCommand(1, 'Choose a tokens subcommand; see --help.'),
  handler: () => {},
};
