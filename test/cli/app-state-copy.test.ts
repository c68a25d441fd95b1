// `cnpj-api app-state copy`: a node's app.db, built through the real program and a real server,
// into a new PostgreSQL and back out into a new app.db, compared table by table, row by row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { copyPlan } from '../../src/storage/app/copy.ts';
import { openAppDb } from '../../src/storage/app/sqlite.ts';
import type { AppDatabase } from '../../src/storage/app/schema.ts';
import { openAppPostgres } from '../../src/storage/app/postgres.ts';
import { openNodeStore } from '../../src/storage/app/store.ts';
import { freshDatabaseUrl, tempDataDir } from '../helpers/app-backends.ts';
import { runCli } from '../helpers/cli.ts';
import { SERPRO_FILIAL, fixture } from '../server/fixtures.ts';
import { bearer, get, publish, serve, sleep, writeSnapshot } from '../server/helpers.ts';

const cli = (dataDir: string, args: string[], input = '') => runCli(['--data-dir', dataDir, ...args], input);

async function ok(dataDir: string, args: string[], input = ''): Promise<string> {
  const r = await cli(dataDir, args, input);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.err}`);
  return r.out;
}

async function refused(dataDir: string, args: string[], re: RegExp): Promise<void> {
  const r = await cli(dataDir, args);
  assert.equal(r.code, 1, `expected exit 1: ${r.out} ${r.err}`);
  assert.equal(r.err.trim().split('\n').length, 1, `one line on stderr: ${r.err}`);
  assert.match(r.err, re);
}

/** Every copied table's rows, in key order, as JSON lines. */
async function dump(db: Kysely<AppDatabase>, sqliteSide: Kysely<AppDatabase>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of await copyPlan(sqliteSide, db)) {
    const rows = await (db as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .selectFrom(t.name)
      .select(t.columns)
      .execute();
    out[t.name] = rows.map((r) => JSON.stringify(t.columns.map((c) => r[c]))).sort();
  }
  return out;
}

async function servedMonth(dataDir: string): Promise<void> {
  writeSnapshot(dataDir, 'm1', fixture());
  await publish(dataDir, 'm1', '2026-03', fixture());
}

async function lookup(url: string, token: string) {
  for (let i = 0; i < 100 && (await get(`${url}/api/v1/status`)).body.status !== 'ok'; i++) await sleep(20);
  return get(`${url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, bearer(token));
}

test('app-state copy: app.db into a new PostgreSQL and back out, every row kept', async (t) => {
  const a = tempDataDir();
  // Through the program, as an operator would.
  await ok(a, ['accounts', 'create', '--name', 'Acme Ltda', '--plan', 'Ouro']);
  await ok(a, ['accounts', 'create', '--name', 'Beta', '--plan', 'Prata']);
  await ok(a, ['plans', 'set', 'Sob Medida', '--quota', '777', '--api', 'no']);
  await ok(
    a,
    ['users', 'create', '--account', 'Acme Ltda', '--email', 'ana@acme.com.br', '--role', 'billing_admin'],
    'uma senha boa e longa\n',
  );
  const token = (await ok(a, ['tokens', 'create', '--account', 'Acme Ltda', '--name', 'produção'])).trim();
  const other = JSON.parse(await ok(a, ['tokens', 'create', '--account', 'Beta', '--name', 'x', '--json'])) as {
    id: number;
  };
  await ok(a, ['tokens', 'deactivate', String(other.id)]);

  // Usage counted by a real server answering lookups.
  await servedMonth(a);
  const server = await serve(a);
  let remaining: string | null;
  try {
    for (let i = 0; i < 3; i++) assert.equal((await lookup(server.url, token)).status, 200);
    const last = await lookup(server.url, token);
    remaining = last.headers.get('x-ratelimit-remaining');
    assert.equal(remaining, String(50_000 - 4));
  } finally {
    await server.close();
  }

  // The tables the program has no command for, and enough rows to need several batches.
  const appA = await openAppDb(a);
  try {
    const s = appA.sqlite;
    const acme = (s.prepare("SELECT id FROM accounts WHERE name = 'Acme Ltda'").get() as { id: number }).id;
    const user = (s.prepare('SELECT id FROM users').get() as { id: number }).id;
    const tokenId = (s.prepare('SELECT token_id FROM usage_daily').get() as { token_id: number }).token_id;
    const when = '2026-11-02T10:00:00.000Z';
    s.prepare('INSERT INTO sessions VALUES (?, ?, ?, NULL, ?, ?)').run('a'.repeat(64), user, 'csrf', when, when);
    s.prepare("INSERT INTO extra_contacts (cnpj, tipo_contato, contato) VALUES (?, 'email', 'x@y.com')").run(
      SERPRO_FILIAL,
    );
    s.prepare('INSERT INTO usage_daily_web VALUES (?, ?, 7)').run(acme, '2026-11-02');
    s.prepare('INSERT INTO watchlist VALUES (?, ?, ?)').run(acme, SERPRO_FILIAL, when);
    s.prepare('INSERT INTO webhooks (account_id, url, secret, created_at, created_by) VALUES (?, ?, ?, ?, ?)').run(
      acme,
      'https://hooks.example.com/cnpj',
      's'.repeat(40),
      when,
      'cli',
    );
    // Queued d1 before d0: their queue order (seq) is not their ids' order.
    for (const id of ['d1', 'd0'])
      s.prepare(
        "INSERT INTO webhook_deliveries (id, webhook_id, event, month, body, created_at, next_attempt_at, retry_until) VALUES (?, 1, 'changes', '2026-10', '{}', ?, ?, ?)",
      ).run(id, when, when, when);
    s.prepare("INSERT INTO webhook_months VALUES (1, '2026-10', ?, 3)").run(when);
    s.transaction(() => {
      const day = s.prepare('INSERT INTO usage_daily VALUES (?, ?, ?)');
      for (let i = 0; i < 2500; i++)
        day.run(tokenId, new Date(Date.UTC(2019, 0, 1) + i * 86_400_000).toISOString().slice(0, 10), i + 1);
      const attempt = s.prepare('INSERT INTO login_attempts (email, ip, attempted_at) VALUES (?, ?, ?)');
      for (let i = 0; i < 1500; i++) attempt.run(`u${i % 7}@x.com`, '10.0.0.1', when);
    })();
    s.prepare('DELETE FROM login_attempts WHERE id % 10 = 5').run(); // gaps in the ids
  } finally {
    await appA.close();
  }

  const url = await freshDatabaseUrl();
  // Another schema's tables in the same database are not app state (and do not stop the copy).
  const setup = await openAppPostgres(url);
  try {
    await sql`CREATE SCHEMA audit`.execute(setup.db);
    await sql`CREATE TABLE audit.log (id INTEGER PRIMARY KEY, what TEXT)`.execute(setup.db);
  } finally {
    await setup.close();
  }
  const copied = await ok(a, ['app-state', 'copy', '--to', url]);
  assert.match(copied, /usage_daily\s+2,501 rows/);
  assert.match(copied, /login_attempts\s+1,350 rows/);
  assert.match(copied, /copied [\d,]+ rows in \d+ tables/);
  assert.doesNotMatch(copied, /registry_snapshots/);
  // The deliveries keep their queue order: seq travels as it is.
  const queued = await openAppPostgres(url);
  try {
    const order = await sql<{ id: string }>`SELECT id FROM webhook_deliveries ORDER BY seq`.execute(queued.db);
    assert.deepEqual(
      order.rows.map((r) => r.id),
      ['d1', 'd0'],
    );
  } finally {
    await queued.close();
  }

  // A second copy into the same database is refused, and changes nothing.
  await refused(
    a,
    ['app-state', 'copy', '--to', url],
    /already holds app state: .*accounts \(2 rows\).*nothing was copied/,
  );

  // Every app-state table has rows, so the comparisons below compare something.
  const storeA = await openNodeStore(a, url);
  try {
    const before = await dump(storeA.local.db, storeA.local.db);
    for (const [name, rows] of Object.entries(before)) assert.ok(rows.length > 0, `${name} has rows in app.db`);
    assert.deepEqual(await dump(storeA.db, storeA.local.db), before, 'PostgreSQL holds app.db, row by row');
    // New ids follow the copied ones.
    const next = await storeA.db
      .insertInto('login_attempts')
      .values({ email: 'z@x.com', ip: '1', attempted_at: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal(next.id, 1501);
    await storeA.db.deleteFrom('login_attempts').where('id', '=', next.id).execute();
  } finally {
    await storeA.close();
  }

  await t.test('a node on PostgreSQL accepts the old token with the month’s usage kept', async () => {
    const b = tempDataDir();
    await servedMonth(b);
    const fleet = await serve(b, { databaseUrl: url });
    try {
      const r = await lookup(fleet.url, token);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-ratelimit-remaining'), String(50_000 - 5));
    } finally {
      await fleet.close();
    }
  });

  // Back out: into a new data dir's app.db, compared row by row with what PostgreSQL holds now
  // (the original's rows plus the fleet node's call above).
  const c = tempDataDir();
  await ok(c, ['app-state', 'copy', '--from', url]);
  await refused(c, ['app-state', 'copy', '--from', url], /already holds app state/);
  const [pgNow, appNew] = [await openAppPostgres(url), await openAppDb(c)];
  try {
    assert.deepEqual(await dump(appNew.db, appNew.db), await dump(pgNow.db, appNew.db));
    assert.deepEqual(
      appNew.sqlite.prepare('SELECT id FROM webhook_deliveries ORDER BY seq').pluck().all(),
      ['d1', 'd0'],
      'and back: the same order on app.db',
    );
  } finally {
    await pgNow.close();
    await appNew.close();
  }

  // Back into the node's own app.db, which still holds its state from before: only with --replace,
  // and its registry pointer stays.
  const pgAgain = await openAppPostgres(url);
  try {
    await pgAgain.db
      .insertInto('accounts')
      .values({ name: 'Gama', plan: 'Bronze', created_at: '2026-11-03T00:00:00.000Z' })
      .execute();
  } finally {
    await pgAgain.close();
  }
  await refused(a, ['app-state', 'copy', '--from', url], /already holds app state: .*or give --replace/);
  await ok(a, ['app-state', 'copy', '--from', url, '--replace']);
  const storeBack = await openNodeStore(a, url);
  try {
    assert.deepEqual(await dump(storeBack.local.db, storeBack.local.db), await dump(storeBack.db, storeBack.local.db));
    assert.ok(
      await storeBack.local.db.selectFrom('accounts').select('id').where('name', '=', 'Gama').executeTakeFirst(),
    );
  } finally {
    await storeBack.close();
  }
  assert.match(await ok(a, ['status']), /active snapshot: m1 \(month 2026-03\)/);
});

test('app-state copy: a schema the two sides do not share, or no target, is refused', async () => {
  const dir = tempDataDir();
  await refused(dir, ['app-state', 'copy'], /give --to <url> or --from <url>/);
  await refused(dir, ['app-state', 'copy', '--to', 'mysql://db/x'], /invalid --to .*unsupported scheme/);
  const url = await freshDatabaseUrl();
  const pg = await openAppPostgres(url);
  try {
    await sql`ALTER TABLE accounts ADD COLUMN nickname TEXT`.execute(pg.db);
  } finally {
    await pg.close();
  }
  await refused(
    dir,
    ['app-state', 'copy', '--to', url],
    /not have the same app schema \(accounts\.nickname only in PostgreSQL\)/,
  );
  await refused(dir, ['app-state', 'copy', '--to', 'postgres://nobody@/none?host=/nonexistent'], /copy failed/);
});
