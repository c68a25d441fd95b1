// The API's metering on both backends (over app.db's SqliteMetering, the shared PostgreSQL's PgMetering):
// the same answers for the same rows — tokens, the monthly quota exact and all or nothing for a
// batch, the daily rows, a change to a token applying to the very next call. Then PostgreSQL only:
// the quota exact across two nodes (two pools), a deactivation through one node refused by the
// other on its next call, one round trip per batch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ContactsCopy } from '../../../src/domain/company/contacts-copy.ts';
import { Meter } from '../../../src/domain/metering/meter.ts';
import { PgMetering } from '../../../src/storage/app/metering-postgres.ts';
import { NO_TOKEN, type AccessLayer } from '../../../src/domain/metering/access.ts';
import { openAppStore } from '../../../src/storage/app/store.ts';
import { forBackends, freshDatabaseUrl, openFreshStore, tempDataDir } from '../../helpers/app-backends.ts';
import {
  accessFor,
  addAccount,
  addPlan,
  addToken,
  dailyCalls,
  monthCalls,
  setEnabled,
} from './helpers/access-backends.ts';
import { denied, granted } from './helpers/api-setup.ts';

forBackends('API access', ({ open }) => {
  test('a token counts against its plan: exact at the limit, a batch all or nothing, the daily rows', async () => {
    const app = await open();
    await addPlan(app, 'Tiny', 5);
    const acc = await addAccount(app, 'Acme', 'Tiny');
    const t = await addToken(app, acc);
    const { access, close } = accessFor(app);
    try {
      const id = granted(await access.authenticate(t.token));
      assert.equal(id.quota.remaining, 5);
      const hot = await access.identifyForCount(t.token);
      assert.ok(hot.ok);
      const results = await Promise.all([
        access.charge(hot),
        access.charge(hot, 3),
        access.charge(hot, 2), // 1 left: refused whole
        access.charge(hot),
        access.charge(hot), // used up
      ]);
      assert.deepEqual(
        results.map((r) => (r.ok ? r.quota.remaining : r.error)),
        [4, 1, 'quota_exceeded', 0, 'quota_exceeded'],
      );
      assert.equal(denied(results[2]).quota?.remaining, 1);
      assert.match(denied(results[2]).message, /precisa de 2 consultas, mas restam 1/);
      assert.equal(await monthCalls(app, acc), 5);
      assert.equal(await dailyCalls(app, t.id), 5);
      assert.equal(denied(await access.authenticate(t.token)).error, 'quota_exceeded');
      const row = await app.db
        .selectFrom('api_tokens')
        .select('last_used_at')
        .where('id', '=', t.id)
        .executeTakeFirst();
      assert.ok(row?.last_used_at, 'last_used_at stamped');
    } finally {
      close();
    }
  });

  test('a change to the token applies to the very next call, and denials are decided on fresh rows', async () => {
    const app = await open();
    const acc = await addAccount(app, 'Acme', 'Ouro');
    const t = await addToken(app, acc);
    const { access, close } = accessFor(app);
    try {
      assert.equal(denied(await access.identifyForCount('cnpj_x')).error, 'invalid_token');
      assert.equal(denied(await access.identifyForCount(undefined)).error, 'missing_token');
      const id = await access.identifyForCount(t.token);
      assert.ok(id.ok);
      granted(await access.charge(id));
      // In memory now; deactivated behind its back: the count decides it again.
      const cached = await access.identifyForCount(t.token);
      assert.ok(cached.ok);
      await setEnabled(app, t.id, 0);
      assert.equal(denied(await access.charge(cached)).error, 'token_deactivated');
      assert.equal(denied(await access.identifyForCount(t.token)).error, 'token_deactivated');
      await setEnabled(app, t.id, 1);
      granted(await access.charge((await access.identifyForCount(t.token)) as never));
      assert.equal(await monthCalls(app, acc), 2);
    } finally {
      close();
    }
  });

  test("the Consulta page's calls (no token) count in the account's month and its web day", async () => {
    const app = await open();
    await addPlan(app, 'Tiny', 3);
    const acc = await addAccount(app, 'Acme', 'Tiny');
    const t = await addToken(app, acc);
    const { access, close } = accessFor(app);
    try {
      const web = await access.identifyAccount(acc);
      assert.ok(web.ok);
      assert.equal(web.tokenId, NO_TOKEN);
      assert.equal(granted(await access.charge(web, 2)).quota.remaining, 1);
      granted(await access.charge((await access.identifyForCount(t.token)) as never));
      assert.equal(denied(await access.charge(web)).error, 'quota_exceeded');
      // Nothing left: refused when identified, before any work (the month's usage read with the account).
      const over = denied(await access.identifyAccount(acc));
      assert.deepEqual([over.error, over.status], ['quota_exceeded', 429]);
      const w = await app.db.selectFrom('usage_daily_web').select('calls').where('account_id', '=', acc).execute();
      assert.deepEqual(
        w.map((r) => Number(r.calls)),
        [2],
      );
      assert.equal(denied(await access.identifyAccount(9999)).error, 'account_suspended');
    } finally {
      close();
    }
  });
});

/** A second node: its own pool on the same database. */
async function secondNode(url: string) {
  const store = await openAppStore(tempDataDir(), url);
  return { store, access: new Meter(new PgMetering(store.pool!)) as AccessLayer, close: () => store.close() };
}

test('PostgreSQL: 100 concurrent calls on a quota of 30 through two nodes (two pools): exactly 30 counted', async () => {
  const url = await freshDatabaseUrl();
  const a = await secondNode(url);
  const b = await secondNode(url);
  try {
    await addPlan(a.store, 'Trinta', 30);
    const acc = await addAccount(a.store, 'Acme', 'Trinta');
    const t = await addToken(a.store, acc);
    const t2 = await addToken(a.store, acc);
    const ids = await Promise.all([a.access.identifyForCount(t.token), b.access.identifyForCount(t2.token)]);
    assert.ok(ids[0].ok && ids[1].ok);
    // Spread over event-loop turns, so each node sends many batches that race the other's.
    const calls: Promise<{ ok: boolean }>[] = [];
    for (let i = 0; i < 100; i++) {
      const node = i % 2 === 0 ? a : b;
      const id = ids[i % 2] as never;
      calls.push(new Promise((r) => setTimeout(r, i % 7)).then(() => node.access.charge(id)));
    }
    const results = await Promise.all(calls);
    assert.equal(results.filter((r) => r.ok).length, 30);
    assert.equal(await monthCalls(a.store, acc), 30);
    assert.equal((await dailyCalls(a.store, t.id)) + (await dailyCalls(a.store, t2.id)), 30);
  } finally {
    await a.close();
    await b.close();
  }
});

test('PostgreSQL: a token deactivated through node A is refused by node B on its very next call', async () => {
  const url = await freshDatabaseUrl();
  const a = await secondNode(url);
  const b = await secondNode(url);
  try {
    const acc = await addAccount(a.store, 'Acme', 'Ouro');
    const t = await addToken(a.store, acc);
    const id = await b.access.identifyForCount(t.token);
    assert.ok(id.ok);
    granted(await b.access.charge(id));
    await setEnabled(a.store, t.id, 0);
    // B still has the record in memory: granted from memory, refused by the count.
    const cached = await b.access.identifyForCount(t.token);
    assert.ok(cached.ok, 'served from memory');
    assert.equal(denied(await b.access.charge(cached)).error, 'token_deactivated');
    assert.equal(await monthCalls(a.store, acc), 1);
  } finally {
    await a.close();
    await b.close();
  }
});

test('PostgreSQL: the calls of a turn are one round trip (one query, one commit), answered after it', async () => {
  const app = await openFreshStore('postgres');
  const acc = await addAccount(app, 'Acme', 'Ouro');
  const t = await addToken(app, acc);
  const pool = app.pool!;
  const access = new Meter(new PgMetering(pool));
  const id = await access.identifyForCount(t.token);
  assert.ok(id.ok);
  const texts: string[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { query: unknown }).query = (...args: unknown[]) => {
    const c = args[0] as { text?: string } | string;
    texts.push(typeof c === 'string' ? c : (c.text ?? ''));
    return query(...args);
  };
  // Transaction ids assigned so far (the next one to be): a write transaction takes one, a read
  // none. Unlike pg_stat_database's commit count, nothing here is flushed late by other backends.
  const writes = async () => {
    const r = (await query('SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS x')) as {
      rows: { x: number }[];
    };
    return Number(r.rows[0].x);
  };
  try {
    const results = await Promise.all(Array.from({ length: 20 }, () => access.charge(id)));
    assert.ok(results.every((r) => r.ok));
    assert.equal(texts.length, 1, `one query for 20 calls, got ${texts.length}`);
    assert.match(texts[0], /count_calls/);
    assert.equal(await monthCalls(app, acc), 20);
    // The same through the database's own transaction ids: one write transaction for 30 calls.
    const before = await writes();
    texts.length = 0;
    await Promise.all(Array.from({ length: 30 }, () => access.charge(id)));
    const after = await writes();
    assert.equal(texts.length, 1);
    assert.equal(after - before, 1, `write transactions: ${after - before}`);
  } finally {
    (pool as { query: unknown }).query = query;
  }
});

test("PostgreSQL: the API's contacts copy is the one of the epoch its count read, reloaded before the answer", async () => {
  const app = await openFreshStore('postgres');
  const acc = await addAccount(app, 'Acme', 'Ouro');
  const t = await addToken(app, acc);
  const store = new PgMetering(app.pool!);
  const contacts = new ContactsCopy(store);
  const access = new Meter(store, { contacts });
  const id = await access.identifyForCount(t.token);
  assert.ok(id.ok);
  granted(await access.charge(id));
  assert.deepEqual(contacts.get('33683111000280'), []);
  await app.db
    .insertInto('extra_contacts')
    .values([
      { cnpj: '33683111000280', tipo_contato: 'email', contato: 'a@b.c' },
      { cnpj: '33683111000280', tipo_contato: 'website', tipo_website: 'loja', contato: 'https://x.y' },
    ])
    .execute();
  // The next count reads the moved epoch: the copy is reloaded before its promise settles.
  granted(await access.charge(id));
  assert.deepEqual(contacts.get('33683111000280'), [
    { tipo_contato: 'email', tipo_website: '', contato: 'a@b.c' },
    { tipo_contato: 'website', tipo_website: 'loja', contato: 'https://x.y' },
  ]);
  assert.ok(Object.isFrozen(contacts.get('33683111000280')));
  await app.db.deleteFrom('extra_contacts').execute();
  granted(await access.charge(id));
  assert.deepEqual(contacts.get('33683111000280'), []);
});
