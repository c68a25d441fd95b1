// Migration 0010 (webhook_deliveries.seq) on an app.db of 0009 holding deliveries: the queue keeps
// its order (seq = the rowid it was ordered by), a new delivery comes after every one, also after
// rows copied in with larger seqs, and the down step restores 0009's shape.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { openAppSqlite } from '../../../../src/storage/app/sqlite.ts';
import { sqliteMigrations } from '../../../../src/storage/app/migrations/sqlite/index.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-0010-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const provider = { getMigrations: async () => sqliteMigrations };

test('0010 gives every delivery its queue order, and each new one the next; down removes it', async () => {
  const s = openAppSqlite(dataDir);
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: s }) });
  try {
    const migrator = new Migrator({ db, provider });
    assert.equal((await migrator.migrateTo('0009_snapshot_release')).error, undefined);
    const account = s
      .prepare("INSERT INTO accounts (name, plan, created_at) VALUES ('Acme', 'Ouro', 'now') RETURNING id")
      .pluck()
      .get() as number;
    const hook = s
      .prepare(
        "INSERT INTO webhooks (account_id, url, secret, created_at, created_by) VALUES (?, 'https://example.com/h', ?, 'now', 'cli') RETURNING id",
      )
      .pluck()
      .get(account, 'x'.repeat(32)) as number;
    const queue = (id: string, seq?: number) =>
      s
        .prepare(
          `INSERT INTO webhook_deliveries (id, webhook_id, event, body, created_at, next_attempt_at, retry_until${seq === undefined ? '' : ', seq'})
           VALUES (?, ?, 'test', '{}', 'now', 'now', 'now'${seq === undefined ? '' : ', ?'})`,
        )
        .run(...(seq === undefined ? [id, hook] : [id, hook, seq]));
    // Ids that sort otherwise than the queue: the order is the rowid's, not the id's.
    for (const id of ['c', 'a', 'b']) queue(id);
    s.prepare("DELETE FROM webhook_deliveries WHERE id = 'a'").run();

    assert.equal((await migrator.migrateTo('0010_webhook_delivery_seq')).error, undefined);
    const order = () => s.prepare('SELECT id, seq FROM webhook_deliveries ORDER BY seq').raw().all();
    assert.deepEqual(order(), [
      ['c', 1],
      ['b', 3],
    ]);
    queue('d');
    queue('copied', 40); // as `app-state copy` writes a PostgreSQL seq
    queue('e');
    assert.deepEqual(order(), [
      ['c', 1],
      ['b', 3],
      ['d', 4],
      ['copied', 40],
      ['e', 41],
    ]);
    assert.throws(() => queue('twice', 4), /UNIQUE constraint/);

    assert.equal((await migrator.migrateTo('0009_snapshot_release')).error, undefined);
    const columns = s.prepare("SELECT name FROM pragma_table_info('webhook_deliveries')").pluck().all();
    assert.ok(!columns.includes('seq'));
    queue('after-down');
  } finally {
    await db.destroy();
  }
});
