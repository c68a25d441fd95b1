// writeWithoutWaiting: while another connection holds app.db's write lock, the write is tried again
// on later turns (the event loop keeps running), lands once the lock is free, gives up with
// SQLITE_BUSY after its bound, and leaves the connection's busy_timeout as it was.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openAppSqlite } from '../../../src/storage/app/sqlite.ts';
import { writeWithoutWaiting } from '../../../src/storage/app/write-retry.ts';
import { tempDataDir, withAppDb } from '../../server/helpers.ts';

test('waits for the lock on later turns, then writes; gives up after its bound', async () => {
  const dir = tempDataDir();
  await withAppDb(dir, () => {}); // migrated
  const ours = openAppSqlite(dir);
  const other = openAppSqlite(dir);
  let timer: NodeJS.Timeout | undefined;
  try {
    ours.pragma('busy_timeout = 7000');
    ours.exec('CREATE TABLE t (x INTEGER)');
    other.prepare('BEGIN IMMEDIATE').run();
    let ticks = 0;
    timer = setInterval(() => ticks++, 5);
    const pending = writeWithoutWaiting(ours, () =>
      ours.transaction(() => ours.prepare('INSERT INTO t VALUES (1)').run()).immediate(),
    );
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 100));
    // A busy handler sleeping in SQLite would have held the loop the whole 7 s: no tick at all.
    assert.ok(ticks >= 1, `the event loop ran meanwhile (${ticks} ticks)`);
    assert.equal(settled, false, 'still waiting for the lock');
    other.prepare('COMMIT').run();
    await pending;
    clearInterval(timer);
    assert.equal(other.prepare('SELECT count(*) FROM t').pluck().get(), 1);
    assert.equal(ours.pragma('busy_timeout', { simple: true }), 7000, 'busy_timeout restored');

    other.prepare('BEGIN IMMEDIATE').run();
    const started = Date.now();
    await assert.rejects(
      writeWithoutWaiting(ours, () => ours.prepare('INSERT INTO t VALUES (2)').run(), 80),
      { code: 'SQLITE_BUSY' },
    );
    assert.ok(Date.now() - started >= 80);
    other.prepare('ROLLBACK').run();
    assert.equal(ours.pragma('busy_timeout', { simple: true }), 7000);
  } finally {
    // A failed assertion must not leave the timer holding the process (its temp dir would stay).
    clearInterval(timer);
    ours.close();
    other.close();
  }
});
