// A server process SIGKILLed while clients add and remove watched CNPJs: every addition answered
// 201 is in the list afterwards and every removal answered 204 is gone (the answer waits for the
// WAL flush). A process kill leaves the OS's cached pages, so this proves the order (committed
// before answered), not the fsync itself, as test/server/server-crash.test.ts for the counted calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setPlan } from '../../src/domain/accounts/plans.ts';
import { makeCnpj } from '../../src/domain/cnpj.ts';
import { killServe, makeAccount, spawnServe, tempDataDir, withAppDb, withAppStore } from './helpers.ts';

test('a server SIGKILLed mid-way loses no answered watchlist change', async () => {
  const dataDir = tempDataDir();
  const a = await makeAccount(dataDir, 'Crash', { quota: 1_000_000 });
  await withAppStore(dataDir, (db) => setPlan(db, 'Plano Crash', { watchlistLimit: 100_000 }));
  const server = await spawnServe(dataDir);
  const added = new Set<string>();
  const removed = new Set<string>();
  /** Removals sent: one cut by the kill may or may not have happened. */
  const removing = new Set<string>();
  try {
    const auth = { Authorization: `Bearer ${a.token}` };
    let next = 0;
    let killed = false;
    const loop = async () => {
      while (!killed) {
        const cnpj = makeCnpj(String(10_000_000 + next++), '0001');
        try {
          const put = await fetch(`${server.url}/api/v1/watchlist/${cnpj}`, { method: 'PUT', headers: auth });
          await put.arrayBuffer();
          if (put.status !== 201) throw new Error(`PUT ${put.status}`);
          added.add(cnpj);
          // Every third one is removed again.
          if (next % 3 === 0) {
            removing.add(cnpj);
            const del = await fetch(`${server.url}/api/v1/watchlist/${cnpj}`, { method: 'DELETE', headers: auth });
            await del.arrayBuffer();
            if (del.status !== 204) throw new Error(`DELETE ${del.status}`);
            removed.add(cnpj);
          }
          if (added.size >= 300 && !killed) {
            killed = true;
            server.child.kill('SIGKILL');
          }
        } catch (e) {
          if (!killed) throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, loop));
    await server.exited;
  } finally {
    await killServe(server);
  }
  const stored = new Set(
    await withAppDb(dataDir, (s) => {
      assert.equal(s.pragma('integrity_check', { simple: true }), 'ok');
      return s.prepare('SELECT cnpj FROM watchlist WHERE account_id = ?').pluck().all(a.accountId) as string[];
    }),
  );
  for (const c of added) if (!removing.has(c)) assert.ok(stored.has(c), `answered 201, lost: ${c}`);
  for (const c of removed) assert.ok(!stored.has(c), `answered 204, back: ${c}`);
  assert.ok(added.size >= 300 && removed.size > 50, `${added.size} added, ${removed.size} removed`);
});
