import type { Argv, CommandModule } from 'yargs';
import { loadContactsFile, type ContactsLoadMode } from '../../domain/company/contacts.ts';
import { CliError } from '../errors.ts';
import type { GlobalArgs } from '../options.ts';
import { withApp } from './app-helpers.ts';

interface LoadArgs extends GlobalArgs {
  file: string;
  mode: string;
}

const load: CommandModule<GlobalArgs, LoadArgs> = {
  command: 'load <file>',
  describe: 'load extra contacts from a CSV "cnpj,tipo_contato,tipo_website,contato"; all or nothing',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'CSV file (UTF-8, comma-separated, header optional)',
      })
      .option('mode', {
        type: 'string',
        default: 'replace',
        describe: 'replace: the file becomes the whole set; per-cnpj: only the CNPJs in the file are replaced',
      }),
  handler: (argv) =>
    withApp(argv, async (app) => {
      if (argv.mode !== 'replace' && argv.mode !== 'per-cnpj')
        throw new CliError(`--mode must be replace or per-cnpj, not "${argv.mode}".`);
      const r = await loadContactsFile(app, argv.file, argv.mode as ContactsLoadMode);
      console.log(
        `loaded ${r.rows} contact(s) for ${r.cnpjs} CNPJ(s) (${r.mode})` +
          (r.duplicatesSkipped ? `, ${r.duplicatesSkipped} duplicate line(s) skipped` : '') +
          `; ${r.before} → ${r.after} contacts in total`,
      );
    }),
};

export const contactsCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'contacts',
  describe: 'manage extra contacts (contatos_extras)',
  builder: (y: Argv<GlobalArgs>) => y.command(load).demandCommand(1, 'Choose a contacts subcommand; see --help.'),
  handler: () => {},
};
