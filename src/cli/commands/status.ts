import type { CommandModule } from 'yargs';
import { dataPaths } from '../../lib/config.ts';
import { openAppDb } from '../../storage/app-db.ts';
import { activeSnapshot } from '../../storage/snapshots/records.ts';
import { dataDirOf, type GlobalArgs } from '../options.ts';

interface Args extends GlobalArgs {
  json?: boolean;
}

export const statusCommand: CommandModule<GlobalArgs, Args> = {
  command: 'status',
  describe: 'show the active registry snapshot (month, import time, row counts)',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  handler: async (argv) => {
    const dataDir = dataDirOf(argv);
    const app = await openAppDb(dataDir);
    try {
      const snap = activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir);
      if (argv.json) {
        console.log(JSON.stringify({ dataDir, active: snap }, null, 2));
        return;
      }
      console.log(`data dir: ${dataDir}`);
      if (!snap) {
        console.log('no registry imported yet (run `cnpj-api import <folder>`)');
        return;
      }
      console.log(
        `active snapshot: ${snap.id} (month ${snap.month}${snap.stats.synthetic ? ', SYNTHETIC data' : ''}${snap.stats.partial ? ', PARTIAL' : ''})`,
      );
      if (snap.stats.partial)
        console.log(`PARTIAL month, published with --allow-partial: ${snap.stats.partial.join('; ')}`);
      for (const why of snap.stats.skipped ?? []) console.log(`left out (tax-regime file in another layout): ${why}`);
      console.log(
        `imported at: ${snap.importedAt}, in ${snap.stats.seconds.toFixed(1)} s, ${(snap.stats.bytes / 1e6).toFixed(1)} MB on disk`,
      );
      for (const [name, t] of Object.entries(snap.stats.tables)) {
        console.log(
          `  ${name.padEnd(16)} ${t.rows.toLocaleString('en-US').padStart(14)} rows` +
            (t.rejected ? `, ${t.rejected} rejected` : '') +
            (t.duplicates ? `, ${t.duplicates} duplicates dropped` : ''),
        );
      }
      if (snap.stats.missingFiles.length) console.log(`missing standard files: ${snap.stats.missingFiles.join(', ')}`);
      const { recordedMonths } = await import('../../../importer/history/months.ts');
      const last = recordedMonths(dataDir)[0];
      console.log(
        last
          ? `history: last recorded month ${last.month} (compared with ${last.fromMonth}); see \`cnpj-api history status\``
          : 'history: no month recorded yet',
      );
    } finally {
      await app.close();
    }
  },
};
