// Measures the change history's comparison alone on two imported months of a data directory:
//   npm run bench:history -- --data-dir D --before 2026-09 --after 2026-10
// Records the differences (the rules of src/domain/history/record.ts apply: the same month again
// replaces them) and prints the time, the rows and the bytes history.db grew by.
import { statSync } from 'node:fs';
import { dataPaths } from '../src/lib/config.ts';
import { recordMonth } from '../src/domain/history/record.ts';
import { openHistoryDb } from '../src/storage/history/db.ts';
import { snapshotDir } from './evolve-check.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`--${name} is required`);
  return process.argv[i + 1];
};
const dataDir = arg('data-dir');
const [before, after] = [arg('before'), arg('after')];
const file = dataPaths(dataDir).historyDb;
const size = () => {
  const db = openHistoryDb(dataDir);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return statSync(file).size;
};
const bytesBefore = size();
const cpu = process.cpuUsage();
const r = recordMonth(dataDir, { month: before, dir: snapshotDir(dataDir, before) }, { month: after, dir: snapshotDir(dataDir, after) });
const used = process.cpuUsage(cpu);
const bytesAfter = size();
if (!r.recorded) throw new Error(r.reason);
const rows = Object.values(r.counts).reduce((a, b) => a + b, 0);
console.log(JSON.stringify({
  month: r.month, fromMonth: r.fromMonth, replaced: r.replaced, seconds: +r.seconds.toFixed(2),
  cpuSeconds: +((used.user + used.system) / 1e6).toFixed(2), rows, historyBytes: bytesAfter,
  grewBytes: r.replaced ? null : bytesAfter - bytesBefore, bytesPerRow: +(bytesAfter / rows).toFixed(1), peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024), counts: r.counts,
}, null, 1));
