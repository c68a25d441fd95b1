// The PostgreSQL app schema (fleet mode) against app.db's: the same tables and columns, and the
// constraints the hot path relies on refusing the same bad rows, through the same kysely code.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Kysely } from 'kysely';
import { openAppDb, type AppDb } from '../../../src/storage/app/sqlite.ts';
import { openAppPostgres, type AppPostgres } from '../../../src/storage/app/postgres.ts';
import type { AppDatabase } from '../../../src/storage/app/schema.ts';
import { postgresMigrations } from '../../../src/storage/app/migrations/postgres/index.ts';
import { startPgCluster } from '../../helpers/postgres.ts';

const cluster = await startPgCluster();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-postgres-'));
const open: { close(): Promise<void> }[] = [];
after(async () => {
  for (const o of open) await o.close();
  await cluster.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function pgApp(database: string, icuLocale?: string): Promise<AppPostgres> {
  const app = await openAppPostgres(await cluster.createDatabase(database, { icuLocale }));
  open.push(app);
  return app;
}
async function sqliteApp(name: string): Promise<AppDb> {
  const app = await openAppDb(path.join(dataDir, name));
  open.push(app);
  return app;
}

// Not app state in fleet mode: the served snapshot stays node-local (migrations/postgres/0001).
const SQLITE_ONLY = new Set(['registry_snapshots']);
// Not app state either: the fleet's node heartbeats and its release (migrations/postgres/0003, 0005).
const POSTGRES_ONLY = new Set(['fleet_nodes', 'fleet_releases', 'fleet_target']);

interface Column {
  name: string;
  notNull: boolean;
  type: string;
}

function sqliteColumns(app: AppDb): Map<string, Column[]> {
  const tables = app.sqlite
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  const out = new Map<string, Column[]>();
  for (const t of tables.filter((t) => !SQLITE_ONLY.has(t))) {
    const cols = app.sqlite.pragma(`table_info(${t})`) as { name: string; type: string; notnull: number; pk: number }[];
    // table_info leaves primary key columns' NOT NULL unsaid, but STRICT tables refuse a NULL key
    // (an INTEGER PRIMARY KEY given NULL takes the next rowid); PostgreSQL says NOT NULL.
    out.set(
      t,
      cols.map((c) => ({ name: c.name, notNull: c.notnull === 1 || c.pk > 0, type: c.type.toLowerCase() })),
    );
  }
  return out;
}

async function pgColumns(db: Kysely<AppDatabase>): Promise<Map<string, Column[]>> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string; data_type: string }>`
    SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%' ORDER BY table_name, ordinal_position`.execute(db);
  const out = new Map<string, Column[]>();
  for (const r of rows.filter((r) => !POSTGRES_ONLY.has(r.table_name))) {
    // Types by family: SQLite's INTEGER is 64-bit, PostgreSQL's is INTEGER or BIGINT by range.
    const type = r.data_type === 'bigint' || r.data_type === 'integer' ? 'integer' : r.data_type;
    // The queue's order is given on insert: by an identity here (NOT NULL), by a trigger after the
    // insert on app.db (so the column must take NULL there); both always hold one.
    const given = r.table_name === 'webhook_deliveries' && r.column_name === 'seq';
    if (!out.has(r.table_name)) out.set(r.table_name, []);
    out.get(r.table_name)!.push({ name: r.column_name, notNull: r.is_nullable === 'NO' && !given, type });
  }
  return out;
}

const sortedMap = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));

test('a migrated PostgreSQL has the tables, columns, nullability and indexes of a fresh app.db', async () => {
  const lite = await sqliteApp('schema');
  const pgdb = await pgApp('schema');
  const liteCols = sqliteColumns(lite);
  assert.equal(liteCols.size, 16, 'every app-state table of app-schema.ts');
  assert.deepEqual(sortedMap(await pgColumns(pgdb.db)), sortedMap(liteCols));

  // Indexes by name (PostgreSQL's own pkey/key ones and the NOCASE stand-ins aside).
  const liteIndexes = (
    lite.sqlite.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as {
      name: string;
      tbl_name: string;
    }[]
  )
    .filter((i) => !SQLITE_ONLY.has(i.tbl_name))
    .map((i) => i.name)
    .sort();
  const { rows } = await sql<{ indexname: string }>`
    SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely_%'
      AND indexname NOT LIKE '%\_pkey' AND indexname NOT LIKE '%\_key' AND indexname NOT LIKE '%\_nocase'
    ORDER BY indexname`.execute(pgdb.db);
  assert.deepEqual(
    rows.map((r) => r.indexname),
    liteIndexes,
  );
});

/** The kind of constraint an error reports, on either database (null: not a constraint error). */
function violation(err: unknown): string | null {
  const code = String((err as { code?: unknown }).code ?? '');
  const kinds: Record<string, string> = {
    SQLITE_CONSTRAINT_CHECK: 'check',
    SQLITE_CONSTRAINT_UNIQUE: 'unique',
    SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
    SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign key',
    SQLITE_CONSTRAINT_NOTNULL: 'not null',
    '23514': 'check',
    '23505': 'unique',
    '23503': 'foreign key',
    '23502': 'not null',
  };
  return kinds[code] ?? null;
}

const NOW = '2026-01-02T03:04:05.000Z';
const HASH = (c: string) => c.repeat(64);

/** The same rows in both: an account with a user, a token and a webhook; returns their ids. */
async function seed(db: Kysely<AppDatabase>) {
  const account = await db
    .insertInto('accounts')
    .values({ name: 'Acme', plan: 'Bronze', created_at: NOW, suspended_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      account_id: account.id,
      email: 'ana@acme.com',
      password_hash: 'x',
      role: 'billing_admin',
      created_at: NOW,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const token = await db
    .insertInto('api_tokens')
    .values({
      account_id: account.id,
      name: 'main',
      token_hash: HASH('a'),
      display_prefix: 'cnpj_a',
      expires_at: null,
      invalidated_at: null,
      created_at: NOW,
      created_by: 'cli',
      last_used_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const webhook = await db
    .insertInto('webhooks')
    .values({
      account_id: account.id,
      url: 'https://acme.com/h',
      secret: 's'.repeat(32),
      created_at: NOW,
      created_by: 'cli',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('usage_monthly').values({ account_id: account.id, month: '2026-01', calls: 1 }).execute();
  return { account: account.id, user: user.id, token: token.id, webhook: webhook.id };
}

type Ids = Awaited<ReturnType<typeof seed>>;
const delivery = (ids: Ids, id: string) => ({
  id,
  webhook_id: ids.webhook,
  event: 'changes' as const,
  month: '2026-01',
  body: '{}',
  created_at: NOW,
  next_attempt_at: NOW,
  retry_until: NOW,
  last_attempt_at: null,
  last_status_code: null,
  last_error: null,
  delivered_at: null,
});

/** Each bad row, the constraint it breaks, and the write that tries it. */
const BAD: [string, string, (db: Kysely<AppDatabase>, ids: Ids) => Promise<unknown>][] = [
  [
    'a plan with a negative quota',
    'check',
    (db) => db.insertInto('plans').values({ name: 'Neg', monthly_quota: -1, api_included: 1 }).execute(),
  ],
  [
    'a plan named like another but for case',
    'unique',
    (db) => db.insertInto('plans').values({ name: 'bRONZE', monthly_quota: 1, api_included: 1 }).execute(),
  ],
  [
    'a blank plan name',
    'check',
    (db) => db.insertInto('plans').values({ name: '   ', monthly_quota: 1, api_included: 1 }).execute(),
  ],
  [
    'api_included not 0/1',
    'check',
    (db) =>
      db
        .insertInto('plans')
        .values({ name: 'Two', monthly_quota: 1, api_included: 2 as 1 })
        .execute(),
  ],
  [
    'a negative watchlist limit',
    'check',
    (db) => db.updateTable('plans').set({ watchlist_limit: -1 }).where('name', '=', 'Ouro').execute(),
  ],
  [
    'an account name differing only in case',
    'unique',
    (db) =>
      db.insertInto('accounts').values({ name: 'ACME', plan: 'Bronze', created_at: NOW, suspended_at: null }).execute(),
  ],
  [
    'an account on an unknown plan',
    'foreign key',
    (db) =>
      db.insertInto('accounts').values({ name: 'Other', plan: 'Nope', created_at: NOW, suspended_at: null }).execute(),
  ],
  [
    'a suspended account without suspended_at',
    'check',
    (db) =>
      db
        .insertInto('accounts')
        .values({ name: 'Sus', plan: 'Bronze', status: 'suspended', created_at: NOW, suspended_at: null })
        .execute(),
  ],
  [
    'an unknown account status',
    'check',
    (db) =>
      db
        .insertInto('accounts')
        .values({ name: 'St', plan: 'Bronze', status: 'closed' as 'active', created_at: NOW, suspended_at: null })
        .execute(),
  ],
  [
    'an e-mail with capitals',
    'check',
    (db, ids) =>
      db
        .insertInto('users')
        .values({ account_id: ids.account, email: 'Bia@acme.com', password_hash: 'x', role: 'member', created_at: NOW })
        .execute(),
  ],
  [
    'an e-mail without @',
    'check',
    (db, ids) =>
      db
        .insertInto('users')
        .values({ account_id: ids.account, email: 'bia', password_hash: 'x', role: 'member', created_at: NOW })
        .execute(),
  ],
  [
    'a second user with the same e-mail',
    'unique',
    (db, ids) =>
      db
        .insertInto('users')
        .values({ account_id: ids.account, email: 'ana@acme.com', password_hash: 'x', role: 'member', created_at: NOW })
        .execute(),
  ],
  [
    'an unknown role',
    'check',
    (db, ids) =>
      db
        .insertInto('users')
        .values({
          account_id: ids.account,
          email: 'c@acme.com',
          password_hash: 'x',
          role: 'owner' as 'member',
          created_at: NOW,
        })
        .execute(),
  ],
  [
    'a user of an unknown account',
    'foreign key',
    (db) =>
      db
        .insertInto('users')
        .values({ account_id: 999, email: 'd@acme.com', password_hash: 'x', role: 'member', created_at: NOW })
        .execute(),
  ],
  [
    'a token hash of the wrong length',
    'check',
    (db, ids) => db.updateTable('api_tokens').set({ token_hash: 'abc' }).where('id', '=', ids.token).execute(),
  ],
  [
    'an expiry that is not a day',
    'check',
    (db, ids) => db.updateTable('api_tokens').set({ expires_at: '2026-1-01' }).where('id', '=', ids.token).execute(),
  ],
  [
    'enabled not 0/1',
    'check',
    (db, ids) =>
      db
        .updateTable('api_tokens')
        .set({ enabled: 2 as 1 })
        .where('id', '=', ids.token)
        .execute(),
  ],
  [
    'a usage row for an unknown account',
    'foreign key',
    (db) => db.insertInto('usage_monthly').values({ account_id: 999, month: '2026-01' }).execute(),
  ],
  [
    'a month without its dash',
    'check',
    (db, ids) => db.insertInto('usage_monthly').values({ account_id: ids.account, month: '202602' }).execute(),
  ],
  [
    'a negative monthly count',
    'check',
    (db, ids) => db.updateTable('usage_monthly').set({ calls: -1 }).where('account_id', '=', ids.account).execute(),
  ],
  [
    'a second row for the same account and month',
    'unique',
    (db, ids) => db.insertInto('usage_monthly').values({ account_id: ids.account, month: '2026-01' }).execute(),
  ],
  [
    'a daily row for an unknown token',
    'foreign key',
    (db) => db.insertInto('usage_daily').values({ token_id: 999, day: '2026-01-02' }).execute(),
  ],
  [
    'a day with a one-digit day',
    'check',
    (db, ids) => db.insertInto('usage_daily').values({ token_id: ids.token, day: '2026-01-2' }).execute(),
  ],
  [
    'a web day for an unknown account',
    'foreign key',
    (db) => db.insertInto('usage_daily_web').values({ account_id: 999, day: '2026-01-02' }).execute(),
  ],
  [
    'a contact with a short CNPJ',
    'check',
    (db) =>
      db.insertInto('extra_contacts').values({ cnpj: '1234567890123', tipo_contato: 'email', contato: 'x' }).execute(),
  ],
  [
    'an empty contact',
    'check',
    (db) =>
      db.insertInto('extra_contacts').values({ cnpj: '12345678901234', tipo_contato: 'email', contato: '' }).execute(),
  ],
  [
    'a session hash of the wrong length',
    'check',
    (db, ids) =>
      db
        .insertInto('sessions')
        .values({ id_hash: 'x', user_id: ids.user, csrf_secret: 'c', flash: null, created_at: NOW, expires_at: NOW })
        .execute(),
  ],
  [
    'a session of an unknown user',
    'foreign key',
    (db) =>
      db
        .insertInto('sessions')
        .values({ id_hash: HASH('b'), user_id: 999, csrf_secret: 'c', flash: null, created_at: NOW, expires_at: NOW })
        .execute(),
  ],
  ['a second auth epoch row', 'check', (db) => db.insertInto('auth_epoch').values({ id: 2, n: 0 }).execute()],
  [
    'a watched CNPJ of the wrong length',
    'check',
    (db, ids) => db.insertInto('watchlist').values({ account_id: ids.account, cnpj: '1', added_at: NOW }).execute(),
  ],
  [
    'a webhook to a non-HTTP URL',
    'check',
    (db, ids) =>
      db
        .insertInto('webhooks')
        .values({
          account_id: ids.account,
          url: 'ftp://acme.com',
          secret: 's'.repeat(32),
          created_at: NOW,
          created_by: 'cli',
        })
        .execute(),
  ],
  [
    'a short webhook secret',
    'check',
    (db, ids) =>
      db
        .insertInto('webhooks')
        .values({
          account_id: ids.account,
          url: 'https://acme.com',
          secret: 'short',
          created_at: NOW,
          created_by: 'cli',
        })
        .execute(),
  ],
  [
    'an unknown delivery event',
    'check',
    (db, ids) =>
      db
        .insertInto('webhook_deliveries')
        .values({ ...delivery(ids, 'd1'), event: 'other' as 'test' })
        .execute(),
  ],
  [
    'an unknown delivery status',
    'check',
    (db, ids) =>
      db
        .insertInto('webhook_deliveries')
        .values({ ...delivery(ids, 'd2'), status: 'lost' as 'failed' })
        .execute(),
  ],
  [
    'a delivery for an unknown webhook',
    'foreign key',
    (db, ids) =>
      db
        .insertInto('webhook_deliveries')
        .values({ ...delivery(ids, 'd3'), webhook_id: 999 })
        .execute(),
  ],
  [
    'a negative change count',
    'check',
    (db, ids) =>
      db
        .insertInto('webhook_months')
        .values({ webhook_id: ids.webhook, month: '2026-01', queued_at: NOW, changes: -1 })
        .execute(),
  ],
];

/** Rows near the edges that both accept (so a refusal above is the constraint's, not the setup's). */
const GOOD: [string, (db: Kysely<AppDatabase>, ids: Ids) => Promise<unknown>][] = [
  [
    'names differing only in a non-ASCII capital (NOCASE folds ASCII only)',
    (db) =>
      db
        .insertInto('accounts')
        .values([
          { name: 'Ágil', plan: 'Bronze', created_at: NOW, suspended_at: null },
          { name: 'ágil', plan: 'Bronze', created_at: NOW, suspended_at: null },
        ])
        .execute(),
  ],
  ['a new plan', (db) => db.insertInto('plans').values({ name: 'Novo', monthly_quota: 0, api_included: 0 }).execute()],
  [
    'another account',
    (db) =>
      db
        .insertInto('accounts')
        .values({ name: 'Acme 2', plan: 'Bronze', created_at: NOW, suspended_at: null })
        .execute(),
  ],
  [
    'a suspended account with its date',
    (db) =>
      db
        .insertInto('accounts')
        .values({ name: 'Zed', plan: 'Ouro', status: 'suspended', created_at: NOW, suspended_at: NOW })
        .execute(),
  ],
  [
    'a webhook URL in capitals (LIKE ignores ASCII case in SQLite)',
    (db, ids) =>
      db
        .insertInto('webhooks')
        .values({
          account_id: ids.account,
          url: 'HTTPS://ACME.COM/H',
          secret: 's'.repeat(32),
          created_at: NOW,
          created_by: 'cli',
        })
        .execute(),
  ],
  [
    'an e-mail with a non-ASCII capital (SQLite lowers ASCII only)',
    (db, ids) =>
      db
        .insertInto('users')
        .values({ account_id: ids.account, email: 'jÉ@acme.com', password_hash: 'x', role: 'member', created_at: NOW })
        .execute(),
  ],
  ['a delivery', (db, ids) => db.insertInto('webhook_deliveries').values(delivery(ids, 'ok')).execute()],
  [
    'a watched CNPJ',
    (db, ids) =>
      db.insertInto('watchlist').values({ account_id: ids.account, cnpj: '12345678901234', added_at: NOW }).execute(),
  ],
];

test('the same bad rows are refused by the same kind of constraint in both, and the same good rows accepted', async () => {
  const lite = await sqliteApp('constraints');
  // In a database whose locale folds more than ASCII (pt-BR, as a Brazilian operator's would be):
  // the schema's case rules must not depend on it.
  const pgdb = await pgApp('constraints', 'pt-BR');
  const { rows } = await sql<{ lowered: string }>`SELECT lower('Á') AS lowered`.execute(pgdb.db);
  assert.equal(rows[0].lowered, 'á', 'the database lowers non-ASCII capitals itself');
  const dbs = { sqlite: lite.db, postgres: pgdb.db };
  const ids = { sqlite: await seed(lite.db), postgres: await seed(pgdb.db) };
  assert.deepEqual(ids.postgres, ids.sqlite, 'ids start at 1 and come back as numbers');
  for (const [name, write] of GOOD) {
    for (const which of ['sqlite', 'postgres'] as const) {
      await assert.doesNotReject(write(dbs[which], ids[which]), `${which} accepts ${name}`);
    }
  }
  for (const [name, kind, write] of BAD) {
    for (const which of ['sqlite', 'postgres'] as const) {
      await assert.rejects(
        write(dbs[which], ids[which]),
        (err) => {
          assert.equal(violation(err), kind, `${which} refuses ${name} by a ${kind} constraint: ${String(err)}`);
          return true;
        },
        `${which} refuses ${name}`,
      );
    }
  }
});

test('the epochs move on the same changes in both', async () => {
  const lite = await sqliteApp('epochs');
  const pgdb = await pgApp('epochs');
  const run = async (db: Kysely<AppDatabase>) => {
    const ids = await seed(db);
    const epochs = async () => ({
      auth: (await db.selectFrom('auth_epoch').select('n').executeTakeFirstOrThrow()).n,
      contacts: (await db.selectFrom('contacts_epoch').select('n').executeTakeFirstOrThrow()).n,
    });
    const seen = [await epochs()];
    await db.updateTable('api_tokens').set({ last_used_at: NOW }).where('id', '=', ids.token).execute(); // not auth
    seen.push(await epochs());
    await db.updateTable('api_tokens').set({ enabled: 0 }).where('id', '=', ids.token).execute();
    seen.push(await epochs());
    await db.updateTable('plans').set({ monthly_quota: 1 }).execute();
    seen.push(await epochs());
    await db
      .insertInto('extra_contacts')
      .values({ cnpj: '12345678901234', tipo_contato: 'email', contato: 'x' })
      .execute();
    await db.deleteFrom('extra_contacts').execute();
    seen.push(await epochs());
    await db.deleteFrom('accounts').execute();
    seen.push(await epochs());
    return seen;
  };
  // By how much each step moved them: SQLite's start at 5 (0007's UPDATE of the five plans fired
  // 0004's trigger), PostgreSQL's at 0; only a move matters to the API, never the value.
  const moves = (seen: { auth: number; contacts: number }[]) =>
    seen.map((e) => ({ auth: e.auth - seen[0].auth, contacts: e.contacts - seen[0].contacts }));
  const expected = moves(await run(lite.db));
  assert.deepEqual(expected.slice(1), [
    { auth: 0, contacts: 0 }, // last_used_at is no auth change
    { auth: 1, contacts: 0 },
    { auth: 6, contacts: 0 }, // one move per plan row
    { auth: 6, contacts: 2 },
    { auth: 8, contacts: 2 }, // the account, and its token by cascade
  ]);
  assert.deepEqual(moves(await run(pgdb.db)), expected);
});

test('migrating twice is a no-op, and nodes migrating at once take turns', async () => {
  const url = await cluster.createDatabase('twice');
  const [a, b] = await Promise.all([openAppPostgres(url), openAppPostgres(url)]);
  open.push(a, b);
  const before = await pgColumns(a.db);
  await a.db.updateTable('plans').set({ sort_order: 99 }).where('name', '=', 'Black').execute();
  const again = await openAppPostgres(url);
  open.push(again);
  const { error, results } = await new Migrator({
    db: again.db,
    provider: { getMigrations: async () => postgresMigrations },
  }).migrateToLatest();
  assert.equal(error, undefined);
  assert.deepEqual(results, [], 'nothing left to run');
  assert.deepEqual(sortedMap(await pgColumns(again.db)), sortedMap(before));
  const plans = await again.db.selectFrom('plans').select(['name', 'sort_order']).orderBy('sort_order').execute();
  assert.equal(plans.length, 5, 'the seeded plans once');
  assert.deepEqual(plans.at(-1), { name: 'Black', sort_order: 99 }, 'data kept');
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM kysely_migration`.execute(again.db);
  assert.deepEqual(rows, [{ n: Object.keys(postgresMigrations).length }], 'count(*) reads back as a number');
});
