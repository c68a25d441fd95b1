// Group commit: the calls of one event-loop turn in one transaction, answered only once it is
// durable; another process's write lock is waited for on later turns, not by sleeping
// (src/domain/accounts/group-commit.ts, alone and through ApiAccess).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { ApiAccess } from '../../../src/domain/accounts/api-access.ts';
import { GroupCommit } from '../../../src/domain/accounts/group-commit.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { createToken } from '../../../src/domain/accounts/tokens.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { openAppSqlite } from '../../../src/storage/app/sqlite.ts';
import { WalSync } from '../../../src/storage/app/wal-sync.ts';
import { apiSetup, granted } from './helpers/api-setup.ts';
import { tempAppDb } from './helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

test('consumeGrouped: calls of one event-loop turn share a commit and still stop exactly at the quota', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    await setPlan(sqliteStore(app), 'Tiny', { monthlyQuota: 5 });
    const access = new ApiAccess(app.sqlite);
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Tiny' });
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const g = granted(access.authenticate(t.token));
    const before = app.sqlite.pragma('data_version', { simple: true });
    const results = await Promise.all(Array.from({ length: 12 }, () => access.consumeGrouped(g)));
    assert.deepEqual(
      results.map((r) => (r.ok ? r.quota.remaining : r.error)),
      [4, 3, 2, 1, 0, ...Array(7).fill('quota_exceeded')],
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 5);
    assert.equal(app.sqlite.pragma('data_version', { simple: true }), before); // own commits do not bump it
  } finally {
    await cleanup();
  }
});

test('grouped counting waits for another writer without blocking the event loop', async () => {
  const { app, access, acc, t, cleanup } = await apiSetup({ walSync: true });
  try {
    const id = access.identify(t.token);
    assert.ok(id.ok);
    // Another process (here: connection) holds the write lock for 150 ms.
    app.sqlite.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const counted = Promise.all([access.consumeGrouped(id), access.consumeGrouped(id)]);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    await new Promise((r) => setTimeout(r, 150));
    app.sqlite.exec('COMMIT');
    const results = await counted;
    clearInterval(ticker);
    assert.ok(ticks >= 5, `the event loop kept running while waiting for the lock (${ticks} ticks)`);
    assert.ok(performance.now() - started >= 150);
    assert.deepEqual(
      results.map((r) => (r.ok ? r.quota.remaining : r.error)),
      [49999, 49998],
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 2);
  } finally {
    await cleanup();
  }
});

/** A WalSync whose flushes wait for release(): shows what is answered before the WAL is on disk. */
class GatedWalSync extends WalSync {
  flushes = 0;
  private gates: (() => void)[] = [];
  override sync(): Promise<void> {
    this.flushes++;
    return new Promise<void>((resolve) => this.gates.push(resolve)).then(() => super.sync());
  }
  release(): void {
    for (const g of this.gates.splice(0)) g();
  }
}

test('GroupCommit: one transaction per turn, results only after the WAL flush, a failed batch fails only its own calls', async () => {
  const { dir, cleanup } = await tempAppDb();
  const conn = openAppSqlite(dir);
  conn.pragma('synchronous = NORMAL');
  conn.exec('CREATE TABLE t (turn INTEGER, item INTEGER)');
  const walSync = new GatedWalSync(path.join(dir, 'app.db-wal'));
  try {
    let turns = 0;
    const commit = new GroupCommit(
      conn,
      (items: number[]) => {
        turns++;
        if (items.includes(-1)) throw new Error('bad batch');
        const insert = conn.prepare('INSERT INTO t VALUES (?, ?)');
        return items.map((i) => (insert.run(turns, i), i * 10));
      },
      walSync,
    );
    const settled: number[] = [];
    const first = [1, 2, 3].map((i) => commit.submit(i).then((r) => (settled.push(r), r)));
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(
      [turns, walSync.flushes, settled],
      [1, 1, []],
      'committed in one transaction, not answered before the flush',
    );
    assert.equal(conn.prepare('SELECT count(*) FROM t WHERE turn = 1').pluck().get(), 3);
    walSync.release();
    assert.deepEqual(await Promise.all(first), [10, 20, 30]);

    const failing = [commit.submit(4), commit.submit(-1)];
    for (const p of failing) await assert.rejects(p, /bad batch/);
    assert.equal(conn.prepare('SELECT count(*) FROM t WHERE item = 4').pluck().get(), 0, 'rolled back');
    const next = commit.submit(5);
    await new Promise((r) => setTimeout(r, 10));
    walSync.release();
    assert.equal(await next, 50);
    assert.deepEqual(commit.run([6, 7]), [60, 70], 'run(): a transaction of its own, now');
  } finally {
    walSync.close();
    conn.close();
    await cleanup();
  }
});
