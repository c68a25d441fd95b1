// `serve --workers 2`: node:cluster processes sharing one port and app.db. The quota stays exact
// across them, and a worker that dies is replaced while the other keeps answering.
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import {
  bearer,
  childPids,
  get,
  killServe,
  makeAccount,
  publish,
  sleep,
  spawnServe,
  tempDataDir,
  withAppDb,
  writeSnapshot,
} from './helpers.ts';

/** A GET on a new connection (keep-alive sockets to a killed worker are dead). */
function freshGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

test('serve --workers 2: exact quota across the workers, a killed worker is replaced', async () => {
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  const N = 37;
  const a = await makeAccount(dataDir, 'Cluster', { quota: N });
  const server = await spawnServe(dataDir, ['--workers', '2'], (pid) => childPids(pid).length === 2);
  const primary = server.child.pid!;
  const deadline = Date.now() + 30_000;
  try {
    const target = `${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;
    const results = await Promise.all(Array.from({ length: 150 }, () => get(target, bearer(a.token))));
    assert.equal(results.filter((r) => r.status === 200).length, N);
    assert.equal(results.filter((r) => r.status === 429).length, 150 - N);
    assert.equal(
      await withAppDb(
        dataDir,
        (s) =>
          (s.prepare('SELECT calls FROM usage_monthly WHERE account_id = ?').get(a.accountId) as { calls: number })
            .calls,
      ),
      N,
    );

    const [victim] = childPids(primary);
    process.kill(victim, 'SIGKILL');
    // Until the kernel has torn the victim down it may still accept a connection, which is then
    // reset: wait until the primary has reaped it.
    while (childPids(primary).includes(victim)) {
      if (Date.now() > deadline) throw new Error(`worker ${victim} still there after SIGKILL`);
      await sleep(10);
    }
    // New connections are answered at once (by the survivor); the primary starts a replacement.
    for (let i = 0; i < 20; i++) assert.equal(await freshGet(`${server.url}/healthz`), 200);
    const replaced = () => {
      const pids = childPids(primary);
      return pids.length === 2 && !pids.includes(victim);
    };
    while (!replaced()) {
      if (Date.now() > deadline + 15_000) throw new Error(`no replacement worker:\n${server.stderr()}`);
      await sleep(50);
    }
    assert.match(server.stderr(), new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another`));
    const after = await new Promise<number>((resolve, reject) => {
      http
        .get(target, { agent: false, headers: { Authorization: `Bearer ${a.token}` } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
    assert.equal(after, 429, 'still exact after the restart');
  } finally {
    await killServe(server);
  }
});
