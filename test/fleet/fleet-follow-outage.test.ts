// A fleet node's follower through outages (issue "fleet switch", point 5): while its release source
// is unreachable the node keeps serving its month and says why; while PostgreSQL is down too it
// keeps its month and logs it once; when both return it catches up by itself, and nothing is served
// half-switched in between (every answer carries one whole month).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDump } from '../../src/demo/generate.ts';
import { runImport } from '../../importer/run.ts';
import { runCli } from '../helpers/cli.ts';
import { startPgCluster, type PgCluster } from '../helpers/postgres.ts';
import { killServe, waitFor as waitUntil, sleep, spawnServe, type ServeProcess } from '../server/helpers.ts';

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args);
  assert.equal(r.code, 0, `cnpj-api ${args.join(' ')} failed: ${r.err}`);
  return r.out.trim();
}

describe('fleet follow through outages', () => {
  let tmp: string;
  let pgc: PgCluster;
  let url: string;
  let node: ServeProcess | undefined;
  const dir = (name: string) => path.join(tmp, name);

  /** Publishes A's active month to `to` and makes it the fleet's release; its id. */
  const publish = (to = 'pub') =>
    cli([
      'release',
      'publish',
      '--to',
      dir(to),
      '--key',
      dir('keys/release.key'),
      '--data-dir',
      dir('A'),
      '--database-url',
      url,
    ]);

  const waitFor = <T>(what: string, probe: () => Promise<T | undefined>, ms?: number) =>
    waitUntil(what, probe, { ms, context: () => node?.stderr() ?? '' });

  const readyz = async () => {
    const r = await fetch(`${node!.url}/readyz`).catch(() => null);
    return r ? { status: r.status, body: (await r.json()) as { reason?: string } } : null;
  };
  /** What the follower last did, from its state file (what `cnpj-api status` prints). */
  const served = () => {
    const s = JSON.parse(fs.readFileSync(path.join(dir('N'), 'follow.json'), 'utf8')) as {
      lastRelease: string | null;
      lastError: string | null;
    };
    return s;
  };

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-fleet-outage-'));
    pgc = await startPgCluster();
    url = await pgc.createDatabase('fleet');
    await generateDump({ companies: 400, out: dir('m0'), seed: 3, month: '2026-09' });
    await generateDump({ companies: 0, out: dir('m1'), evolveFrom: dir('m0') });
    await cli(['release', 'keygen', '--out', dir('keys')]);
    await runImport({ dataDir: dir('A'), inputs: [dir('m0')], search: false, log: () => {} });
  });

  after(async () => {
    if (node) await killServe(node);
    await pgc?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('source, then database, unreachable: the month stays; both back: the node catches up', async () => {
    const r0 = await publish();
    node = await spawnServe(dir('N'), [
      '--database-url',
      url,
      '--follow',
      dir('pub'),
      '--trust',
      dir('keys/release.pub'),
      '--follow-interval',
      '1s',
    ]);
    await waitFor('ready on the first release', async () => ((await readyz())?.status === 200 ? true : undefined));
    assert.equal(served().lastRelease, r0);

    // A new month is the fleet's, but this node's source is gone.
    await runImport({ dataDir: dir('A'), inputs: [dir('m1')], search: false, log: () => {} });
    fs.renameSync(dir('pub'), dir('pub-away'));
    fs.mkdirSync(dir('pub'));
    const r1 = await publish('pub-away');
    await waitFor('the failed pull logged', async () =>
      /pull of release \S+ from .* failed/.test(node!.stderr()) ? true : undefined,
    );
    // Still serving its month (the only node: nothing to wait for, nothing served half-way).
    assert.equal((await readyz())?.status, 200);
    assert.equal(served().lastRelease, r0);

    // The database goes too: the node keeps its month and says so once.
    await pgc.stopServer();
    await waitFor('the database outage logged', async () =>
      /the fleet's database does not answer/.test(node!.stderr()) ? true : undefined,
    );
    // /readyz keeps its database check's answer for a second.
    const readyDown = await waitFor('/readyz 503', async () => {
      const r = await readyz();
      return r?.status === 503 ? r : undefined;
    });
    assert.equal(readyDown?.body.reason, 'shared_db');
    await sleep(3000);
    assert.equal(node.stderr().match(/the fleet's database does not answer/g)?.length, 1, node.stderr());

    // Both come back: it pulls the fleet's release and serves it.
    fs.rmSync(dir('pub'), { recursive: true });
    fs.renameSync(dir('pub-away'), dir('pub'));
    await pgc.startServer();
    await waitFor('serving the new release', async () => (served().lastRelease === r1 ? true : undefined));
    await waitFor('ready again', async () => ((await readyz())?.status === 200 ? true : undefined));
    assert.match(node.stderr(), /follow: the fleet database answers again/);
    assert.match(node.stderr(), new RegExp(`follow: now serving release ${r1} \\(month 2026-10\\)`));
  });
});
