// Every command of the `cnpj-api` program. Each module owns one command (and its subcommands).
import type { CommandModule } from 'yargs';
import { importCommand } from './import.ts';
import { statusCommand } from './status.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [importCommand, statusCommand];
