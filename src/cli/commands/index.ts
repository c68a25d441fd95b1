// Every command of the `cnpj-api` program. Each module owns one command (and its subcommands).
import type { CommandModule } from 'yargs';
import { accountsCommand } from './accounts.ts';
import { appStateCommand } from './app-state.ts';
import { backupCommand } from './backup.ts';
import { contactsCommand } from './contacts.ts';
import { plansCommand } from './plans.ts';
import { probeCommand } from './probe.ts';
import { tokensCommand } from './tokens.ts';
import { usersCommand } from './users.ts';
import { downloadCommand } from './download.ts';
import { historyCommand } from './history.ts';
import { importCommand } from './import.ts';
import { releaseCommand } from './release.ts';
import { serveCommand } from './serve.ts';
import { startCommand } from './start.ts';
import { statusCommand } from './status.ts';
import { updateCommand } from './update.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [
  startCommand,
  serveCommand,
  importCommand,
  statusCommand,
  probeCommand,
  downloadCommand,
  updateCommand,
  accountsCommand,
  usersCommand,
  tokensCommand,
  plansCommand,
  contactsCommand,
  historyCommand,
  releaseCommand,
  backupCommand,
  appStateCommand,
];
