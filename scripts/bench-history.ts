// Measures the change history's comparison alone on two imported months of a data directory:
//   npm run bench:history -- --data-dir D --before 2026-09 --after 2026-10 [--part establishments|companies --into DIR | --step]
// Records the differences (the rules of importer/history/record.ts apply: the same month again
// replaces them) and prints the time, the rows and the bytes history.db grew by. With --part, only
// that part, into DIR's history.db: two of these at once are the import's step (importer/history/step.ts).
// With --step, the import's step itself: both parts in two child processes, then their move into
// D's history.db (the seconds the publish would wait when nothing else runs beside it).
import { statSync } from 'node:fs';
import { dataPaths } from '../src/lib/config.ts';
import type { ComparePart } from '../importer/history/compare.ts';
import { recordMonth } from '../importer/history/record.ts';
import { finishHistory, startHistory } from '../importer/history/step.ts';
import type { SnapshotInfo } from '../src/storage/snapshots/records.ts';
import { openHistoryDb } from '../src/storage/history/db.ts';
import { snapshotDir } from './evolve-check.ts';

const optional = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const arg = (name: string) => {
  const v = optional(name);
  if (!v) throw new Error(`--${name} is required`);
  return v;
};
const dataDir = arg('data-dir');
const [before, after] = [arg('before'), arg('after')];
const part = optional('part') as ComparePart | undefined;
if (part !== undefined && !['establishments', 'companies'].includes(part))
  throw new Error('--part is establishments or companies');
if (process.argv.includes('--step')) {
  const snapshots = [before, after].map(
    (month) => ({ month, dir: snapshotDir(dataDir, month), status: 'kept' }) as unknown as SnapshotInfo,
  );
  const afterDir = snapshots[1].dir;
  const cpu = process.cpuUsage();
  const h = startHistory({ dataDir, snapshots, month: after, buildDir: afterDir, children: [], log: console.log });
  const s = await finishHistory(dataDir, h, console.log);
  const used = process.cpuUsage(cpu);
  const own = process.resourceUsage();
  console.log(
    JSON.stringify({
      seconds: +s.seconds.toFixed(2),
      waitSeconds: +s.waitSeconds.toFixed(2),
      error: s.error,
      childMaxRssMB: Math.round(s.maxRssBytes / 2 ** 20),
      parentCpuSeconds: +((used.user + used.system) / 1e6).toFixed(2),
      peakRssMB: Math.round(own.maxRSS / 1024),
    }),
  );
  process.exit(s.error ? 1 : 0);
}
const historyDir = optional('into') ?? dataDir;
const file = dataPaths(historyDir).historyDb;
const size = () => {
  const db = openHistoryDb(historyDir);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return statSync(file).size;
};
const bytesBefore = size();
const cpu = process.cpuUsage();
const r = recordMonth(
  historyDir,
  { month: before, dir: snapshotDir(dataDir, before) },
  { month: after, dir: snapshotDir(dataDir, after) },
  { part },
);
const used = process.cpuUsage(cpu);
const bytesAfter = size();
if (!r.recorded) throw new Error(r.reason);
const rows = Object.values(r.counts).reduce((a, b) => a + b, 0);
console.log(
  JSON.stringify(
    {
      month: r.month,
      fromMonth: r.fromMonth,
      part: part ?? 'both',
      replaced: r.replaced,
      seconds: +r.seconds.toFixed(2),
      comparisonSeconds: +r.phases.comparison.toFixed(2),
      subjectsSeconds: +r.phases.subjects.toFixed(2),
      cpuSeconds: +((used.user + used.system) / 1e6).toFixed(2),
      rows,
      historyBytes: bytesAfter,
      grewBytes: r.replaced ? null : bytesAfter - bytesBefore,
      bytesPerRow: +(bytesAfter / rows).toFixed(1),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      counts: r.counts,
    },
    null,
    1,
  ),
);
