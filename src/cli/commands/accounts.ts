import type { Argv, CommandModule } from 'yargs';
import {
  changeAccountPlan,
  createAccount,
  listAccounts,
  reactivateAccount,
  suspendAccount,
} from '../../domain/accounts/accounts.ts';
import { currentUsage } from '../../domain/accounts/usage.ts';
import type { GlobalArgs } from '../options.ts';
import { printTable, withApp } from './app-helpers.ts';

interface NameArgs extends GlobalArgs {
  name: string;
}
interface CreateArgs extends NameArgs {
  plan: string;
}
interface ListArgs extends GlobalArgs {
  json?: boolean;
}

const create: CommandModule<GlobalArgs, CreateArgs> = {
  command: 'create',
  describe: 'create an account on a plan',
  builder: (y) =>
    y
      .option('name', { type: 'string', demandOption: true, describe: 'account name (unique, case-insensitive)' })
      .option('plan', { type: 'string', demandOption: true, describe: 'plan name (see `plans list`)' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const a = await createAccount(app, { name: argv.name, plan: argv.plan });
      console.log(`account "${a.name}" created (id ${a.id}, plan ${a.plan})`);
    }),
};

const suspend: CommandModule<GlobalArgs, NameArgs> = {
  command: 'suspend <name>',
  describe: 'suspend an account (non-payment): every token of it is invalidated for good',
  builder: (y) => y.positional('name', { type: 'string', demandOption: true, describe: 'account name' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const { account, invalidatedTokens } = await suspendAccount(app, argv.name);
      console.log(`account "${account.name}" suspended; ${invalidatedTokens} token(s) invalidated`);
    }),
};

const reactivate: CommandModule<GlobalArgs, NameArgs> = {
  command: 'reactivate <name>',
  describe: 'make a suspended account active again (its old tokens stay invalidated; create new ones)',
  builder: (y) => y.positional('name', { type: 'string', demandOption: true, describe: 'account name' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const a = await reactivateAccount(app, argv.name);
      console.log(`account "${a.name}" is active again; create new tokens for it (the old ones stay invalidated)`);
    }),
};

const setPlan: CommandModule<GlobalArgs, CreateArgs> = {
  command: 'set-plan <name>',
  describe: "change an account's plan (the new quota applies from the next request)",
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'account name' })
      .option('plan', { type: 'string', demandOption: true, describe: 'plan name' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const a = await changeAccountPlan(app, argv.name, argv.plan);
      console.log(`account "${a.name}" is now on plan ${a.plan}`);
    }),
};

const list: CommandModule<GlobalArgs, ListArgs> = {
  command: 'list',
  describe: "list accounts with their plan, status and this month's usage",
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const rows = [];
      for (const a of await listAccounts(app)) rows.push({ ...a, usage: await currentUsage(app, a.id) });
      if (argv.json) return void console.log(JSON.stringify(rows, null, 2));
      if (!rows.length)
        return void console.log('no accounts yet (create one with `cnpj-api accounts create --name N --plan P`)');
      printTable(
        ['ID', 'NAME', 'PLAN', 'STATUS', 'CALLS (MONTH)', 'CREATED'],
        rows.map((a) => [
          a.id,
          a.name,
          a.plan,
          a.status,
          `${a.usage.calls}/${a.usage.limit} (${a.usage.month})`,
          a.createdAt.slice(0, 10),
        ]),
      );
    }),
};

export const accountsCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'accounts',
  describe: 'manage customer accounts (create, list, suspend, reactivate, set-plan)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .command(create)
      .command(list)
      .command(suspend)
      .command(reactivate)
      .command(setPlan)
      .demandCommand(1, 'Choose an accounts subcommand; see --help.'),
  handler: () => {},
};
