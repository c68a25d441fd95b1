import type { CommandModule } from 'yargs';
import { CliError } from '../errors.ts';
import type { GlobalArgs } from '../options.ts';

interface Args extends GlobalArgs {
  inputs: string[];
  month?: string;
}

export const importCommand: CommandModule<GlobalArgs, Args> = {
  command: 'import <inputs..>',
  describe: 'import a month of Receita Federal zips (a folder or zip paths) into a new snapshot and publish it',
  builder: (y) =>
    y
      .positional('inputs', { type: 'string', array: true, demandOption: true, describe: 'folder holding the zips, or zip files' })
      .option('month', { type: 'string', describe: 'month of the data, YYYY-MM (default: from the folder name or the files)' }),
  handler: async () => {
    throw new CliError('import is not wired yet');
  },
};
