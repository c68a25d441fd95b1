// A server process SIGKILLed under load: every lookup it answered was counted and stays counted.
// The server answers only after its group commit is durable (WAL flushed off the event loop), so
// the stored count can exceed the answers by the calls in flight, never fall short of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import {
  bearer,
  killServe,
  makeAccount,
  publish,
  spawnServe,
  tempDataDir,
  withAppDb,
  writeSnapshot,
} from './helpers.ts';

test('a server SIGKILLed under load loses no answered call', async () => {
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  const a = await makeAccount(dataDir, 'Crash', { quota: 1_000_000 });
  const server = await spawnServe(dataDir);
  try {
    const target = `${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;
    const CONCURRENCY = 16;
    let answered = 0;
    let lowestRemaining = Infinity;
    let killed = false;
    const loop = async () => {
      while (!killed) {
        try {
          const res = await fetch(target, bearer(a.token));
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`status ${res.status}`);
          answered++;
          lowestRemaining = Math.min(lowestRemaining, Number(res.headers.get('x-ratelimit-remaining')));
          if (answered >= 400 && !killed) {
            killed = true;
            server.child.kill('SIGKILL');
          }
        } catch (e) {
          if (!killed) throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
    await server.exited;
    const calls = await withAppDb(dataDir, (s) => {
      assert.equal(s.pragma('integrity_check', { simple: true }), 'ok');
      return (s.prepare('SELECT calls FROM usage_monthly WHERE account_id = ?').get(a.accountId) as { calls: number })
        .calls;
    });
    assert.ok(calls >= answered, `answered ${answered}, stored ${calls}`);
    assert.ok(calls >= 1_000_000 - lowestRemaining, 'the highest count any answer reported is stored');
    assert.ok(
      calls <= answered + CONCURRENCY,
      `at most the calls in flight were counted without an answer (answered ${answered}, stored ${calls})`,
    );
  } finally {
    await killServe(server);
  }
});
