// Migration 0006 (usage_daily_web: the Consulta page's calls per account and day) on an app.db
// made by the migrations before it, with usage already counted: the rows kept, the new table
// taking a day's calls, its checks, its rows gone with their account, and its down step.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { openAppDb, openAppSqlite } from '../../../../src/storage/app/sqlite.ts';
import { sqliteMigrations } from '../../../../src/storage/app/migrations/sqlite/index.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-0006-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const provider = { getMigrations: async () => sqliteMigrations };
const tables = (db: ReturnType<typeof openAppSqlite>) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];

test('0006 adds usage_daily_web to an app.db of 0005 with its usage kept; down removes it', async () => {
  // An app.db as the previous release left it, with an account that has counted calls.
  const old = openAppSqlite(dataDir);
  const oldDb = new Kysely<unknown>({ dialect: new SqliteDialect({ database: old }) });
  const to5 = await new Migrator({ db: oldDb, provider }).migrateTo('0005_contacts_epoch');
  assert.equal(to5.error, undefined);
  const planName = old.prepare('SELECT name FROM plans ORDER BY sort_order LIMIT 1').pluck().get() as string;
  const accountId = old
    .prepare(
      "INSERT INTO accounts (name, plan, status, created_at) VALUES ('Acme', ?, 'active', '2026-03-01T00:00:00Z') RETURNING id",
    )
    .pluck()
    .get(planName) as number;
  old.prepare("INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, '2026-03', 7)").run(accountId);
  assert.ok(!tables(old).includes('usage_daily_web'));
  await oldDb.destroy();

  // Opening it migrates to the latest schema.
  const app = await openAppDb(dataDir);
  try {
    const s = app.sqlite;
    assert.ok(tables(s).includes('usage_daily_web'));
    assert.equal(
      s.prepare("SELECT calls FROM usage_monthly WHERE account_id = ? AND month = '2026-03'").pluck().get(accountId),
      7,
      'usage kept',
    );
    assert.equal(s.prepare('SELECT count(*) FROM usage_daily_web').pluck().get(), 0, 'no day invented for past calls');

    const add = s.prepare(
      'INSERT INTO usage_daily_web (account_id, day, calls) VALUES (?, ?, ?) ON CONFLICT (account_id, day) DO UPDATE SET calls = calls + excluded.calls',
    );
    add.run(accountId, '2026-03-10', 2);
    add.run(accountId, '2026-03-10', 3);
    assert.equal(s.prepare('SELECT calls FROM usage_daily_web WHERE account_id = ?').pluck().get(accountId), 5);
    assert.throws(() => add.run(accountId, '10/03/2026', 1), /CHECK constraint/);
    assert.throws(() => add.run(accountId, '2026-03-11', -1), /CHECK constraint/);
    assert.throws(() => add.run(accountId + 100, '2026-03-11', 1), /FOREIGN KEY/);
    s.prepare('DELETE FROM usage_monthly WHERE account_id = ?').run(accountId);
    s.prepare('DELETE FROM accounts WHERE id = ?').run(accountId);
    assert.equal(s.prepare('SELECT count(*) FROM usage_daily_web').pluck().get(), 0, 'gone with the account');

    // Down to 0005: the later migrations' down steps run first, then 0006's.
    const down = await new Migrator({ db: app.db, provider }).migrateTo('0005_contacts_epoch');
    assert.equal(down.error, undefined);
    assert.deepEqual(
      down.results?.at(-1) && [
        down.results.at(-1)!.migrationName,
        down.results.at(-1)!.direction,
        down.results.at(-1)!.status,
      ],
      ['0006_usage_daily_web', 'Down', 'Success'],
    );
    assert.ok(!tables(s).includes('usage_daily_web'));
  } finally {
    await app.close();
  }
});
