import fs from 'node:fs';
import type { CommandModule } from 'yargs';
import { dataPaths } from '../../lib/config.ts';
import { openAppDb } from '../../storage/app/sqlite.ts';
import { readFleetStatus, SEEN_WITHIN_SECONDS, type FleetStatus } from '../../storage/app/fleet-nodes.ts';
import { activeSnapshot } from '../../storage/snapshots/records.ts';
import { databaseUrlOf, dataDirOf, type GlobalArgs } from '../options.ts';
import { printTable } from './app-helpers.ts';
import { readFollowState, type FollowState } from '../../server/follow-state.ts';

interface Args extends GlobalArgs {
  json?: boolean;
}

export const statusCommand: CommandModule<GlobalArgs, Args> = {
  command: 'status',
  describe:
    'show the active registry snapshot (month, import time, row counts); with --database-url also the shared database and the nodes serving from it',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'print JSON' }),
  handler: async (argv) => {
    const dataDir = dataDirOf(argv);
    const databaseUrl = databaseUrlOf(argv);
    // Fleet mode off the nodes (only the database URL): no app.db here, and none is created.
    const node = databaseUrl === undefined || fs.existsSync(dataPaths(dataDir).appDb);
    const app = node ? await openAppDb(dataDir) : null;
    try {
      const snap = app && activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir);
      // Fleet mode: read (never migrated) beside this node's own state; unreachable is shown, not thrown.
      const fleet = databaseUrl === undefined ? undefined : await readFleetStatus(databaseUrl);
      const follow = readFollowState(dataDir);
      if (argv.json) {
        console.log(JSON.stringify({ dataDir, node, active: snap, follow, ...(fleet && { fleet }) }, null, 2));
        return;
      }
      if (node) await printNode(dataDir, snap);
      else console.log(`data dir: ${dataDir} (not a node: no app.db; showing the fleet only)`);
      printFollow(follow);
      if (fleet) printFleet(fleet);
    } finally {
      await app?.close();
    }
  },
};

async function printNode(dataDir: string, snap: ReturnType<typeof activeSnapshot>): Promise<void> {
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
  console.log(
    snap.release
      ? `release: ${snap.release}`
      : 'release: none (imported here, not published; `cnpj-api release publish` makes it one)',
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
}

function printFollow(f: FollowState | null): void {
  if (!f) return;
  const every = `${Math.round(f.intervalMs / 1000)} s`;
  console.log(`follows: ${f.source} (every ${every}, trusting ${f.trust.join(', ')}; server pid ${f.pid})`);
  if (f.pulling) console.log('  a pull is running now');
  if (f.lastCheckAt)
    console.log(
      `  last check ${f.lastCheckAt}: ${f.lastResult}${f.lastResult !== 'failed' && f.lastRelease ? ` (release ${f.lastRelease})` : ''}${f.lastError ? `: ${f.lastError}` : ''}`,
    );
}

function ago(seconds: number): string {
  return seconds < 90 ? `${seconds} s ago` : `${Math.round(seconds / 60)} min ago`;
}

function printFleet(fleet: FleetStatus): void {
  console.log(
    `fleet database: ${fleet.database} (${fleet.reachable ? 'reachable' : 'UNREACHABLE'}${fleet.reachable && !fleet.error ? `, schema ${fleet.schemaVersion ?? 'not created yet'}` : ''})`,
  );
  if (fleet.error) {
    console.log(`  ${fleet.reachable ? 'cannot read it' : 'cannot connect'}: ${fleet.error}`);
    return;
  }
  const serving = fleet.nodes.filter((n) => !n.stoppedAt);
  console.log(
    `nodes seen in the last ${SEEN_WITHIN_SECONDS / 60} minutes: ${serving.length} serving` +
      (serving.length < fleet.nodes.length ? `, ${fleet.nodes.length - serving.length} stopped` : ''),
  );
  const t = fleet.target;
  if (t)
    console.log(
      `fleet release: ${t.release} (month ${t.month}), set ${t.setAt.slice(0, 19).replace('T', ' ')} by ${t.setBy}; ` +
        (t.switchAt === null
          ? `waiting for every following node to stage it (or ${t.switchAfterSeconds} s after it was set)`
          : `${t.passed ? 'switched' : 'switching'} at ${t.switchAt.slice(0, 23).replace('T', ' ')}`),
    );
  const short = (r: string | null) => r ?? '-';
  if (fleet.nodes.length)
    printTable(
      ['NODE', 'LISTENS ON', 'MONTH', 'SERVES', 'STAGED', 'VERSION', 'STARTED', 'LAST SEEN', 'STATE'],
      fleet.nodes.map((n) => [
        n.id,
        n.listenUrl,
        n.month ?? 'none',
        short(n.release),
        n.following ? short(n.staged) : 'not following',
        n.version,
        n.startedAt.slice(0, 19).replace('T', ' '),
        n.stoppedAt ? `stopped ${n.stoppedAt.slice(0, 19).replace('T', ' ')}` : ago(n.seenSecondsAgo),
        n.stoppedAt
          ? '-'
          : n.behind
            ? `BEHIND FLEET${
                n.followError
                  ? ` (${n.followError
                      .replace(/^release pull: /, '')
                      .replace(/; the served month is unchanged$/, '')
                      .slice(0, 160)})`
                  : ''
              }`
            : n.month === null
              ? 'no snapshot'
              : !t
                ? '-'
                : n.release !== t.release
                  ? 'switch pending'
                  : 'in step',
      ]),
    );
  const months = new Set(serving.map((n) => n.month ?? 'none'));
  if (months.size > 1)
    console.log(
      `the serving nodes do not serve the same month (${[...months].sort().join(', ')}): a switch is under way, or a node missed an import`,
    );
}
