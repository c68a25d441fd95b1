// Batches on app.db (group commit): the calls of one event-loop turn in one transaction, answered
// only once it is durable; another process's write lock is waited for on later turns, not by
// sleeping (src/domain/metering/meter.ts over src/storage/app/metering-sqlite.ts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { createToken } from '../../../src/domain/accounts/tokens.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { openAppSqlite } from '../../../src/storage/app/sqlite.ts';
import { WalSync } from '../../../src/storage/app/wal-sync.ts';
import { apiSetup, granted, sqliteMeter } from './helpers/api-setup.ts';
import { tempAppDb } from '../accounts/helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

test('charge: calls of one event-loop turn share a commit and still stop exactly at the quota', async () => {
  const { app, cleanup } = await tempAppDb();
  try {
    await setPlan(sqliteStore(app), 'Tiny', { monthlyQuota: 5 });
    const access = sqliteMeter(app.sqlite);
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Tiny' });
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const g = granted(await access.authenticate(t.token));
    const before = app.sqlite.pragma('data_version', { simple: true });
    const results = await Promise.all(Array.from({ length: 12 }, () => access.charge(g)));
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
    const id = await access.identify(t.token);
    assert.ok(id.ok);
    // Another process (here: connection) holds the write lock for 150 ms.
    app.sqlite.exec('BEGIN IMMEDIATE');
    const started = performance.now();
    const counted = Promise.all([access.charge(id), access.charge(id)]);
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

test('one transaction per turn, answers only after the WAL flush, a failed batch fails only its own calls', async () => {
  const { app, dir, cleanup } = await tempAppDb();
  const conn = openAppSqlite(dir, 'api');
  const walSync = new GatedWalSync(path.join(dir, 'app.db-wal'));
  try {
    const access = sqliteMeter(conn, { walSync });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Ouro' });
    const t = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const id = granted(await access.authenticate(t.token));
    const commits = () => Number(conn.prepare('SELECT calls FROM usage_monthly').pluck().get() ?? 0);
    const settled: number[] = [];
    const first = [1, 2, 3].map(() => access.charge(id).then((r) => (settled.push(granted(r).quota.remaining), r)));
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(
      [commits(), walSync.flushes, settled],
      [3, 1, []],
      'committed in one transaction, not answered before the flush',
    );
    walSync.release();
    assert.deepEqual(
      (await Promise.all(first)).map((r) => granted(r).quota.remaining),
      [49999, 49998, 49997],
    );

    // A batch whose transaction fails (here: a trigger of this connection refuses 7 calls at once)
    // fails its own calls, rolled back whole; the next batch counts.
    conn.exec(`CREATE TEMP TRIGGER refuse_seven BEFORE UPDATE ON usage_monthly WHEN NEW.calls - OLD.calls = 7
      BEGIN SELECT RAISE(ABORT, 'bad batch'); END`);
    const failing = [access.charge(id, 6), access.charge(id)];
    for (const p of failing) await assert.rejects(p, /bad batch/);
    assert.equal(commits(), 3, 'rolled back');
    const next = access.charge(id);
    await new Promise((r) => setTimeout(r, 10));
    walSync.release();
    assert.equal(granted(await next).quota.remaining, 49996);
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 4);
  } finally {
    walSync.close();
    conn.close();
    await cleanup();
  }
});
