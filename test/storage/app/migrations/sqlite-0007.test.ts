// Migration 0007 (watchlists and webhooks) on an app.db of 0006: the plans keep their quotas and
// gain a watchlist limit, the new tables check what they hold and go with their account, and the
// down step restores 0006's shape.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { openAppDb, openAppSqlite } from '../../../../src/storage/app/sqlite.ts';
import { sqliteMigrations } from '../../../../src/storage/app/migrations/sqlite/index.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'migration-0007-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const provider = { getMigrations: async () => sqliteMigrations };
const tables = (db: ReturnType<typeof openAppSqlite>) =>
  db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];

test('0007 adds watchlist limits, the watchlist and the webhook queue; down removes them', async () => {
  const old = openAppSqlite(dataDir);
  const oldDb = new Kysely<unknown>({ dialect: new SqliteDialect({ database: old }) });
  assert.equal((await new Migrator({ db: oldDb, provider }).migrateTo('0006_usage_daily_web')).error, undefined);
  const quotas = old.prepare('SELECT name, monthly_quota FROM plans ORDER BY name').all();
  await oldDb.destroy();

  const app = await openAppDb(dataDir);
  try {
    const s = app.sqlite;
    assert.deepEqual(s.prepare('SELECT name, monthly_quota FROM plans ORDER BY name').all(), quotas, 'quotas kept');
    assert.equal(s.prepare("SELECT watchlist_limit FROM plans WHERE name = 'Bronze'").pluck().get(), 100);
    const id = s
      .prepare(
        "INSERT INTO accounts (name, plan, created_at) VALUES ('Acme', 'Bronze', '2026-03-01T00:00:00Z') RETURNING id",
      )
      .pluck()
      .get() as number;
    s.prepare("INSERT INTO watchlist (account_id, cnpj, added_at) VALUES (?, '11222333000181', 'now')").run(id);
    assert.throws(
      () => s.prepare("INSERT INTO watchlist (account_id, cnpj, added_at) VALUES (?, '112', 'now')").run(id),
      /CHECK constraint/,
    );
    const hook = s
      .prepare(
        "INSERT INTO webhooks (account_id, url, secret, created_at, created_by) VALUES (?, 'https://example.com/h', ?, 'now', 'cli') RETURNING id",
      )
      .pluck()
      .get(id, 'x'.repeat(32)) as number;
    assert.throws(
      () =>
        s
          .prepare(
            "INSERT INTO webhooks (account_id, url, secret, created_at, created_by) VALUES (?, 'ftp://x', ?, 'now', 'cli')",
          )
          .run(id, 'x'.repeat(32)),
      /CHECK constraint/,
    );
    s.prepare(
      "INSERT INTO webhook_deliveries (id, webhook_id, event, month, body, created_at, next_attempt_at, retry_until) VALUES ('d1', ?, 'changes', '2026-03', '{}', 'now', 'now', 'later')",
    ).run(hook);
    assert.throws(
      () =>
        s
          .prepare(
            "INSERT INTO webhook_deliveries (id, webhook_id, event, body, created_at, next_attempt_at, retry_until, status) VALUES ('d2', ?, 'test', '{}', 'now', 'now', 'later', 'lost')",
          )
          .run(hook),
      /CHECK constraint/,
    );
    s.prepare('DELETE FROM accounts WHERE id = ?').run(id);
    for (const t of ['watchlist', 'webhooks', 'webhook_deliveries'])
      assert.equal(s.prepare(`SELECT count(*) FROM ${t}`).pluck().get(), 0, `${t} gone with the account`);

    const down = await new Migrator({ db: app.db, provider }).migrateTo('0006_usage_daily_web');
    assert.equal(down.error, undefined);
    for (const t of ['watchlist', 'webhooks', 'webhook_deliveries', 'webhook_months'])
      assert.ok(!tables(s).includes(t));
    assert.ok(
      !(s.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('plans') as string[]).includes(
        'watchlist_limit',
      ),
    );
  } finally {
    await app.close();
  }
});
