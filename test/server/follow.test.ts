// `cnpj-api serve --follow SOURCE --trust KEY`: a node started on an empty data dir answers
// /readyz 503 no_snapshot, pulls the newest release in the background and serves it; a newer
// release published later is picked up at the next check without a restart; a source that
// disappears leaves the node serving its month and says so in the log and in `status`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDump } from '../../src/demo/generate.ts';
import { runImport } from '../../importer/run.ts';
import { runCli } from '../helpers/cli.ts';
import { killServe, waitFor as waitUntil, makeAccount, spawnServe, type ServeProcess } from './helpers.ts';

describe('serve --follow', () => {
  let tmp: string;
  let node: ServeProcess | undefined;
  const dir = (name: string) => path.join(tmp, name);

  const waitFor = <T>(what: string, probe: () => Promise<T | undefined>, ms?: number) =>
    waitUntil(what, probe, { ms, context: () => node?.stderr() ?? '' });

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-follow-'));
    await generateDump({ companies: 600, out: dir('m0'), seed: 5, month: '2026-09' });
    await generateDump({ companies: 0, out: dir('m1'), evolveFrom: dir('m0') });
    await runImport({ dataDir: dir('A'), inputs: [dir('m0')], search: false, log: () => {} });
    assert.equal((await runCli(['release', 'keygen', '--out', dir('keys')])).code, 0);
    await publishA();
  });

  /** Publishes A's active month to the folder the node follows; its release id. */
  async function publishA(): Promise<string> {
    const pub = await runCli([
      'release',
      'publish',
      '--to',
      dir('pub'),
      '--key',
      dir('keys/release.key'),
      '--data-dir',
      dir('A'),
    ]);
    assert.equal(pub.code, 0, pub.err);
    return pub.out.trim();
  }

  after(async () => {
    if (node) await killServe(node);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('an empty node becomes ready from the release, then follows a new one, then outlives its source', async () => {
    // Refusals first: each one line, before anything starts.
    const noTrust = await runCli(['serve', '--port', '0', '--data-dir', dir('B'), '--follow', dir('pub')]);
    assert.equal(noTrust.code, 1);
    assert.match(noTrust.err, /--follow needs --trust FILE/);
    const badInterval = await runCli([
      'serve',
      '--port',
      '0',
      '--data-dir',
      dir('B'),
      '--follow',
      dir('pub'),
      '--trust',
      dir('keys/release.pub'),
      '--follow-interval',
      'soon',
    ]);
    assert.equal(badInterval.code, 1);
    assert.match(badInterval.err, /invalid --follow-interval "soon"/);

    node = await spawnServe(dir('B'), [
      '--follow',
      dir('pub'),
      '--trust',
      dir('keys/release.pub'),
      '--follow-interval',
      '1s',
    ]);
    const first = await fetch(`${node.url}/readyz`);
    const firstBody = (await first.json()) as { error?: string };
    // The pull may already have finished on a fast machine; until it has, 503 not_ready.
    if (first.status !== 200) assert.deepEqual([first.status, firstBody.error], [503, 'not_ready']);
    await waitFor('the first release', async () =>
      (await fetch(`${node!.url}/readyz`)).status === 200 ? true : undefined,
    );

    const { token } = await makeAccount(dir('B'), 'b', { quota: 100_000 });
    const headers = { Authorization: `Bearer ${token}` };
    const status = await fetch(`${node.url}/api/v1/status`, { headers });
    assert.equal(status.headers.get('x-registry-month'), '2026-09');
    const release0 = status.headers.get('x-registry-release');
    assert.match(release0 ?? '', /^2026-09-[0-9a-f]{16}$/);

    // The importing machine imports and publishes the next month: the node switches by itself.
    await runImport({ dataDir: dir('A'), inputs: [dir('m1')], search: false, log: () => {} });
    const release1 = await publishA();
    await waitFor('the new month', async () => {
      const r = await fetch(`${node!.url}/api/v1/status`, { headers });
      await r.arrayBuffer();
      return r.headers.get('x-registry-release') === release1 ? true : undefined;
    });
    // follow.json (what `status` shows) names it as soon as the pull reports it.
    await waitFor('follow.json naming the new release', async () => {
      const saved = JSON.parse(fs.readFileSync(path.join(dir('B'), 'follow.json'), 'utf8')) as {
        lastRelease: string | null;
        lastResult: string | null;
      };
      return saved.lastRelease === release1 && saved.lastResult === 'pulled' ? true : undefined;
    });
    // The change history came with it: the feed answers for the new month.
    const changes = await fetch(`${node.url}/api/v1/changes?limit=5`, { headers });
    assert.equal(changes.status, 200, await changes.clone().text());
    assert.equal(changes.headers.get('x-registry-month'), '2026-10');

    // The source goes away: the node keeps serving, logs why, and status says so.
    fs.renameSync(dir('pub'), dir('pub-gone'));
    await waitFor('a failed check', async () =>
      /follow: pull from .* failed/.test(node!.stderr()) ? true : undefined,
    );
    const still = await fetch(`${node.url}/api/v1/status`, { headers });
    assert.equal(still.status, 200);
    assert.equal(still.headers.get('x-registry-release'), release1);
    const st = await runCli(['status', '--data-dir', dir('B')]);
    assert.equal(st.code, 0, st.err);
    assert.match(st.out, new RegExp(`release: ${release1}`));
    assert.match(st.out, /follows: .*pub \(every 1 s/);
    assert.match(st.out, /last check .*: failed: .*nothing was published/);
  });
});
