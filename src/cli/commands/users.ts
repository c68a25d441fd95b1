import type { Argv, CommandModule } from 'yargs';
import { requireAccount } from '../../accounts/accounts.ts';
import { passwordProblem } from '../../accounts/passwords.ts';
import { createUser, listUsers, USER_ROLES, type UserRole } from '../../accounts/users.ts';
import { CliError } from '../errors.ts';
import type { GlobalArgs } from '../options.ts';
import { printTable, readSecretLine, withApp } from './app-helpers.ts';

interface CreateArgs extends GlobalArgs {
  account: string;
  email: string;
  role: string;
}
interface ListArgs extends GlobalArgs {
  account: string;
  json?: boolean;
}

const create: CommandModule<GlobalArgs, CreateArgs> = {
  command: 'create',
  describe: 'create a web app user; the password is read from stdin (one line)',
  builder: (y) =>
    y
      .option('account', { type: 'string', demandOption: true, describe: 'account name' })
      .option('email', { type: 'string', demandOption: true, describe: 'login e-mail (stored lowercased)' })
      .option('role', { type: 'string', demandOption: true, describe: 'billing_admin (manages tokens) or member (only views)' })
      .example('echo "$PASSWORD" | $0 users create --account Acme --email ana@acme.com.br --role billing_admin', ''),
  handler: (argv) =>
    withApp(argv, async ({ sqlite }) => {
      // Validated here rather than with yargs choices, whose error spans several lines.
      if (!(USER_ROLES as readonly string[]).includes(argv.role)) throw new CliError(`--role must be ${USER_ROLES.join(' or ')}, not "${argv.role}".`);
      // Validate what we can before asking for the password.
      const account = requireAccount(sqlite, argv.account);
      const password = await readSecretLine('Password: ');
      if (!password) throw new CliError('No password given on stdin (one line expected).');
      const problem = passwordProblem(password);
      if (problem) throw new CliError(problem);
      const u = await createUser(sqlite, { accountId: account.id, email: argv.email, password, role: argv.role as UserRole });
      console.log(`user ${u.email} created (id ${u.id}, ${u.role}) in account "${account.name}"`);
    }),
};

const list: CommandModule<GlobalArgs, ListArgs> = {
  command: 'list',
  describe: 'list the users of an account',
  builder: (y) =>
    y
      .option('account', { type: 'string', demandOption: true, describe: 'account name' })
      .option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  handler: (argv) =>
    withApp(argv, ({ sqlite }) => {
      const users = listUsers(sqlite, requireAccount(sqlite, argv.account).id);
      if (argv.json) return void console.log(JSON.stringify(users, null, 2));
      printTable(['ID', 'EMAIL', 'ROLE', 'CREATED'], users.map((u) => [u.id, u.email, u.role, u.createdAt.slice(0, 10)]));
    }),
};

export const usersCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'users',
  describe: 'manage web app users (create, list)',
  builder: (y: Argv<GlobalArgs>) => y.command(create).command(list).demandCommand(1, 'Choose a users subcommand; see --help.'),
  handler: () => {},
};
