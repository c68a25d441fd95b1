import type { Argv, CommandModule } from 'yargs';
import { requireAccount } from '../../domain/accounts/accounts.ts';
import { passwordProblem } from '../../domain/accounts/passwords.ts';
import { AccountsError } from '../../domain/accounts/errors.ts';
import {
  createUser,
  listUsers,
  removeUser,
  requireUserByEmail,
  setUserPassword,
  USER_ROLES,
  type UserRole,
} from '../../domain/accounts/users.ts';
import { forgetLoginFailures } from '../../domain/accounts/login-throttle.ts';
import { CliError } from '../errors.ts';
import type { GlobalArgs } from '../options.ts';
import { printTable, readSecretLine, withApp } from './app-helpers.ts';

interface CreateArgs extends GlobalArgs {
  account: string;
  email: string;
  role: string;
}
interface EmailArgs extends GlobalArgs {
  email: string;
  force?: boolean;
}
interface ListArgs extends GlobalArgs {
  account: string;
  json?: boolean;
}

/** The new password, one line on stdin, checked before anything is written. */
async function readPassword(): Promise<string> {
  const password = await readSecretLine('Password: ');
  if (!password) throw new CliError('No password given on stdin (one line expected).');
  const problem = passwordProblem(password);
  if (problem) throw new CliError(problem);
  return password;
}

const create: CommandModule<GlobalArgs, CreateArgs> = {
  command: 'create',
  describe: 'create a web app user; the password is read from stdin (one line)',
  builder: (y) =>
    y
      .option('account', { type: 'string', demandOption: true, describe: 'account name' })
      .option('email', { type: 'string', demandOption: true, describe: 'login e-mail (stored lowercased)' })
      .option('role', {
        type: 'string',
        demandOption: true,
        describe: 'billing_admin (manages tokens) or member (only views)',
      })
      .example('echo "$PASSWORD" | $0 users create --account Acme --email ana@acme.com.br --role billing_admin', ''),
  handler: (argv) =>
    withApp(argv, async (app) => {
      // Validated here rather than with yargs choices, whose error spans several lines.
      if (!(USER_ROLES as readonly string[]).includes(argv.role))
        throw new CliError(`--role must be ${USER_ROLES.join(' or ')}, not "${argv.role}".`);
      // Validate what we can before asking for the password.
      const account = await requireAccount(app, argv.account);
      const password = await readPassword();
      const u = await createUser(app, {
        accountId: account.id,
        email: argv.email,
        password,
        role: argv.role as UserRole,
      });
      console.log(`user ${u.email} created (id ${u.id}, ${u.role}) in account "${account.name}"`);
    }),
};

const setPassword: CommandModule<GlobalArgs, EmailArgs> = {
  command: 'set-password',
  describe:
    "replace a user's password (read from stdin, one line); ends their web sessions and lifts the login throttle on their e-mail",
  builder: (y) =>
    y
      .option('email', { type: 'string', demandOption: true, describe: 'login e-mail of the user' })
      .example('echo "$PASSWORD" | $0 users set-password --email ana@acme.com.br', ''),
  handler: (argv) =>
    withApp(argv, async (app) => {
      const user = await requireUserByEmail(app, argv.email);
      const password = await readPassword();
      const ended = await setUserPassword(app, user.id, password);
      await forgetLoginFailures(app, user.email);
      console.log(
        `password of ${user.email} changed; ${ended} web session(s) ended, failed logins for the e-mail forgotten`,
      );
    }),
};

const remove: CommandModule<GlobalArgs, EmailArgs> = {
  command: 'remove',
  describe: "remove a user and end their web sessions; the account's API tokens keep working",
  builder: (y) =>
    y.option('email', { type: 'string', demandOption: true, describe: 'login e-mail of the user' }).option('force', {
      type: 'boolean',
      default: false,
      describe: 'remove even the last billing_admin of the account',
    }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      try {
        const { user, sessionsEnded } = await removeUser(app, argv.email, { force: argv.force });
        console.log(
          `user ${user.email} removed (${sessionsEnded} web session(s) ended); the account's API tokens are unaffected`,
        );
      } catch (err) {
        if (err instanceof AccountsError && err.code === 'last_billing_admin') {
          throw new CliError(`${err.message} Create another billing_admin first, or pass --force.`);
        }
        throw err;
      }
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
    withApp(argv, async (app) => {
      const users = await listUsers(app, (await requireAccount(app, argv.account)).id);
      if (argv.json) return void console.log(JSON.stringify(users, null, 2));
      printTable(
        ['ID', 'EMAIL', 'ROLE', 'CREATED'],
        users.map((u) => [u.id, u.email, u.role, u.createdAt.slice(0, 10)]),
      );
    }),
};

export const usersCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'users',
  describe: 'manage web app users (create, list, set-password, remove)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .command(create)
      .command(list)
      .command(setPassword)
      .command(remove)
      .demandCommand(1, 'Choose a users subcommand; see --help.'),
  handler: () => {},
};
