// A server process SIGKILLed under load: every lookup it answered was counted and stays counted.
// The server answers only after its group commit is durable (WAL flushed off the event loop), so
// the stored count can exceed the answers by the calls in flight, never fall short of them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import { bearer, makeAccount, publish, tempDataDir, withAppDb, writeSnapshot } from './helpers.ts';

test('a server SIGKILLed under load loses no answered call', async () => {
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  const a = await makeAccount(dataDir, 'Crash', { quota: 1_000_000 });
  const child = spawn(process.execPath, ['bin/cnpj-api.js', 'serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    const deadline = Date.now() + 30_000;
    let url: string | undefined;
    while (!(url = /serving on (http:\/\/\S+)/.exec(err)?.[1])) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${err}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const target = `${url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;
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
            child.kill('SIGKILL');
          }
        } catch (e) {
          if (!killed) throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
    await exited;
    const calls = await withAppDb(dataDir, (s) => {
      assert.equal(s.pragma('integrity_check', { simple: true }), 'ok');
      return (s.prepare('SELECT calls FROM usage_monthly WHERE account_id = ?').get(a.accountId) as { calls: number }).calls;
    });
    assert.ok(calls >= answered, `answered ${answered}, stored ${calls}`);
    assert.ok(calls >= 1_000_000 - lowestRemaining, 'the highest count any answer reported is stored');
    assert.ok(calls <= answered + CONCURRENCY, `at most the calls in flight were counted without an answer (answered ${answered}, stored ${calls})`);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
});
