import type { CommandModule } from 'yargs';
import { backupAppDb } from '../../storage/backup.ts';
import { dataDirOf, type GlobalArgs } from '../options.ts';

interface BackupArgs extends GlobalArgs {
  file: string;
  force?: boolean;
}

export const backupCommand: CommandModule<GlobalArgs, BackupArgs> = {
  command: 'backup <file>',
  describe: 'copy app.db (accounts, users, tokens, usage) consistently, even while servers run; restore: docs/backup.md',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'the backup file to write' })
      .option('force', { type: 'boolean', default: false, describe: 'replace the file if it exists' })
      .example('$0 backup /var/backups/cnpj-api/app-$(date +%F).db', ''),
  handler: async (argv) => {
    const { file, bytes } = await backupAppDb(dataDirOf(argv), argv.file, { force: argv.force });
    console.log(`backup written to ${file} (${(bytes / 1048576).toFixed(1)} MB, ${bytes} bytes)`);
  },
};
