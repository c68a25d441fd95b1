import type { CommandModule } from 'yargs';
import { backupDataDir, type BackupResult } from '../../storage/app/backup.ts';
import { dataDirOf, type GlobalArgs } from '../options.ts';

interface BackupArgs extends GlobalArgs {
  file: string;
  force?: boolean;
}

export const backupCommand: CommandModule<GlobalArgs, BackupArgs> = {
  command: 'backup <file>',
  describe:
    'copy app.db (accounts, users, tokens, usage) and history.db (the monthly changes) consistently, even while servers and imports run; restore: docs/backup.md',
  builder: (y) =>
    y
      .positional('file', {
        type: 'string',
        demandOption: true,
        describe: 'the backup file of app.db to write; history.db goes beside it as <name>.history.db',
      })
      .option('force', { type: 'boolean', default: false, describe: 'replace the file if it exists' })
      .example('$0 backup /var/backups/cnpj-api/app-$(date +%F).db', ''),
  handler: async (argv) => {
    const { app, history } = await backupDataDir(dataDirOf(argv), argv.file, { force: argv.force });
    const line = (what: string, r: BackupResult) =>
      `${what} written to ${r.file} (${(r.bytes / 1048576).toFixed(1)} MB, ${r.bytes} bytes)`;
    console.log(line('backup', app));
    console.log(
      history ? line('history backup', history) : 'no history.db yet (no month recorded): nothing else to back up',
    );
  },
};
