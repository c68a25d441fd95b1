// The delivery worker against real receivers on loopback, on both backends: signed requests that
// verify with the secret shown at registration; a receiver that fails (500, then a timeout) and
// recovers gets every batch exactly as queued, in order; a hanging endpoint does not hold another's
// deliveries; a destination resolving to loopback is refused at connect time unless private
// networks are allowed. Fleet mode: two workers on one database send each delivery once, in order,
// and a claim whose holder died is taken over when its lease ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryReader } from '../../../src/domain/history/reader.ts';
import { claimDueDeliveries, recordAttempt } from '../../../src/domain/webhooks/attempts.ts';
import { queueTestEvent } from '../../../src/domain/webhooks/queue.ts';
import { createWebhook } from '../../../src/domain/webhooks/webhooks.ts';
import { WebhookWorker } from '../../../src/domain/webhooks/worker.ts';
import { openAppStore, type AppStore, type OpenAppStore } from '../../../src/storage/app/store.ts';
import { forBackends, freshDatabaseUrl, tempDataDir } from '../../helpers/app-backends.ts';
import {
  cnpjs,
  deliveriesInOrder,
  insertAccount,
  makeEnv,
  recordMonth,
  startReceiver,
  verifies,
  watch,
  type Env,
} from './helpers.ts';

const loopback = { allowHttp: true, allowPrivate: true };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function worker(env: Env, extra: Partial<ConstructorParameters<typeof WebhookWorker>[0]> = {}) {
  return new WebhookWorker({
    store: env.app,
    history: new HistoryReader(env.dataDir),
    policy: loopback,
    pollMs: 50,
    queueEveryMs: 100,
    timeoutMs: 500,
    // As the server arranges it: app.db has one delivering process, a fleet's nodes all deliver.
    soleDeliverer: env.app.backend === 'sqlite',
    ...extra,
  });
}

const rowsOf = async (app: AppStore) =>
  (await deliveriesInOrder(app)).map((r) => ({
    id: r.id,
    body: r.body,
    status: r.status,
    attempts: r.attempts,
    code: r.last_status_code,
    error: r.last_error,
    claimedBy: r.claimed_by,
  }));

forBackends('webhook delivery', ({ backend, open }) => {
  test('signed deliveries verify with the secret shown at registration', async () => {
    const env = await makeEnv(open);
    const receiver = await startReceiver();
    const w = worker(env);
    try {
      const { webhook, secret } = await createWebhook(
        env.app,
        { accountId: env.accountId, url: receiver.url, createdBy: '1' },
        loopback,
      );
      const id = await queueTestEvent(env.app, env.accountId, webhook.id, new Date());
      w.start();
      await receiver.waitFor(1);
      const got = receiver.received[0]!;
      assert.equal(got.id, id);
      assert.ok(verifies(secret, got), 'signature verifies');
      assert.ok(!verifies(secret, { ...got, body: got.body + ' ' }), 'a changed body does not');
      assert.ok(Math.abs(Number(got.timestamp) - Date.now() / 1000) < 10);
      assert.deepEqual(JSON.parse(got.body), { event: 'test', delivery_id: id, month: null, data: [] });
      await sleep(100);
      assert.deepEqual(
        (await rowsOf(env.app)).map((r) => [r.status, r.attempts, r.code]),
        [['delivered', 1, 200]],
      );
    } finally {
      await w.stop();
      await receiver.close();
    }
  });

  test('a month recorded while the worker runs is queued on its timer and sent', async () => {
    const env = await makeEnv(open);
    const receiver = await startReceiver();
    const w = worker(env);
    try {
      await watch(env, cnpjs(3));
      await createWebhook(env.app, { accountId: env.accountId, url: receiver.url, createdBy: '1' }, loopback);
      w.start();
      await sleep(300);
      assert.equal(receiver.received.length, 0, 'nothing recorded yet');
      recordMonth(env.dataDir, '2026-03', cnpjs(3));
      await receiver.waitFor(1);
      const body = JSON.parse(receiver.received[0]!.body);
      assert.deepEqual(
        [body.event, body.month, body.batch, body.data.length],
        ['changes', '2026-03', { index: 1, count: 1 }, 3],
      );
      await sleep(300);
      assert.equal(receiver.received.length, 1, 'queued once');
    } finally {
      await w.stop();
      await receiver.close();
    }
  });

  test('a receiver that fails (500, then a timeout) and recovers gets every batch as queued, in order', async () => {
    const env = await makeEnv(open);
    // Answers: batch 1 → 500, batch 1 → hangs (timeout), then 200 for everything.
    const receiver = await startReceiver((n) => (n === 0 ? 500 : n === 1 ? 'hang' : 200));
    let offset = 0;
    const now = () => new Date(Date.now() + offset);
    const w = worker(env, { now, log: (l) => (l.includes('failed') ? (offset += 2 * 3600_000) : 0) });
    try {
      const watched = cnpjs(2500);
      await watch(env, watched);
      await createWebhook(env.app, { accountId: env.accountId, url: receiver.url, createdBy: '1' }, loopback);
      await sleep(5);
      recordMonth(env.dataDir, '2026-03', watched);
      w.start();
      await receiver.waitFor(5);
      await sleep(200);
      const rows = await rowsOf(env.app);
      assert.equal(rows.length, 3, '2,500 changes in batches of 1,000');
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts, r.code]),
        [
          ['delivered', 3, 200],
          ['delivered', 1, 200],
          ['delivered', 1, 200],
        ],
      );
      const got = receiver.received;
      assert.deepEqual(
        got.map((g) => g.id),
        [rows[0]!.id, rows[0]!.id, rows[0]!.id, rows[1]!.id, rows[2]!.id],
        'the first batch three times, then the others in order',
      );
      for (const g of got)
        assert.equal(g.body, rows.find((r) => r.id === g.id)!.body, 'the exact body queued, on every attempt');
      assert.deepEqual(
        got.slice(2).flatMap((g) => JSON.parse(g.body).data.map((c: { cnpj: string }) => c.cnpj)),
        watched,
        'none missing',
      );
      assert.equal(receiver.received.length, 5, 'nothing more');
    } finally {
      await w.stop();
      await receiver.close();
    }
  });

  test('failures are recorded with their reason and retried after the backoff', async () => {
    const env = await makeEnv(open);
    const receiver = await startReceiver(() => 503);
    const w = worker(env);
    try {
      const { webhook } = await createWebhook(
        env.app,
        { accountId: env.accountId, url: receiver.url, createdBy: '1' },
        loopback,
      );
      await queueTestEvent(env.app, env.accountId, webhook.id, new Date());
      w.start();
      await receiver.waitFor(1);
      await sleep(300);
      const row = await env.app.db
        .selectFrom('webhook_deliveries')
        .select([
          'status',
          'attempts',
          'last_status_code as code',
          'last_error as error',
          'next_attempt_at as next',
          'claimed_by',
        ])
        .executeTakeFirstOrThrow();
      assert.equal(row.claimed_by, null, 'the claim ended with the attempt');
      assert.deepEqual([row.status, row.attempts, row.code, row.error], ['pending', 1, 503, 'HTTP 503']);
      const delay = (Date.parse(row.next as string) - Date.now()) / 1000;
      assert.ok(delay > 20 && delay <= 36, `next attempt in ${delay} s`);
      assert.equal(receiver.received.length, 1, 'not before its time');
    } finally {
      await w.stop();
      await receiver.close();
    }
  });

  test('a hanging endpoint does not hold another webhook', async () => {
    const env = await makeEnv(open);
    const slow = await startReceiver(() => 'hang');
    const fast = await startReceiver();
    const w = worker(env, { timeoutMs: 5000 });
    try {
      const a = await createWebhook(env.app, { accountId: env.accountId, url: slow.url, createdBy: '1' }, loopback);
      const b = await createWebhook(env.app, { accountId: env.accountId, url: fast.url, createdBy: '1' }, loopback);
      for (let i = 0; i < 3; i++) await queueTestEvent(env.app, env.accountId, a.webhook.id, new Date());
      for (let i = 0; i < 3; i++) await queueTestEvent(env.app, env.accountId, b.webhook.id, new Date());
      const started = Date.now();
      w.start();
      await fast.waitFor(3);
      assert.ok(Date.now() - started < 2000, `the fast endpoint got its 3 in ${Date.now() - started} ms`);
      assert.equal(slow.received.length, 1, 'one in flight per webhook');
    } finally {
      await w.stop();
      await slow.close();
      await fast.close();
    }
  });

  test('SSRF at connect time: a name resolving to loopback, or a loopback literal, is refused', async () => {
    const env = await makeEnv(open);
    const receiver = await startReceiver();
    const w = worker(env, { policy: { allowHttp: true } });
    try {
      const port = new URL(receiver.url).port;
      // Registered while allowed (as if the name resolved elsewhere then: DNS rebinding).
      const byName = await createWebhook(
        env.app,
        { accountId: env.accountId, url: `http://localhost:${port}/h`, createdBy: '1' },
        loopback,
      );
      const byIp = await createWebhook(
        env.app,
        { accountId: env.accountId, url: `http://127.0.0.1:${port}/h`, createdBy: '1' },
        loopback,
      );
      await queueTestEvent(env.app, env.accountId, byName.webhook.id, new Date());
      await queueTestEvent(env.app, env.accountId, byIp.webhook.id, new Date());
      w.start();
      await sleep(500);
      assert.equal(receiver.received.length, 0, 'nothing reached the receiver');
      const rows = await rowsOf(env.app);
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts, r.code]),
        [
          ['pending', 1, null],
          ['pending', 1, null],
        ],
      );
      for (const r of rows) assert.match(r.error!, /destination refused: endereço de rede privada ou local/);
    } finally {
      await w.stop();
      await receiver.close();
    }
  });

  /** Two nodes on one database (SQLite: one store, as one process has), each with a worker. */
  async function twoNodes(): Promise<{ nodes: OpenAppStore[]; accountId: number; close(): Promise<void> }> {
    const url = backend === 'postgres' ? await freshDatabaseUrl() : undefined;
    const first = await openAppStore(tempDataDir(), url);
    const nodes = [first, url ? await openAppStore(tempDataDir(), url) : first];
    const accountId = await insertAccount(first, 'Acme');
    return {
      nodes,
      accountId,
      async close() {
        for (const n of new Set(nodes)) await n.close();
      },
    };
  }

  test('two workers on one database: one delivery, exactly one HTTP attempt', async () => {
    const receiver = await startReceiver();
    const fleet = await twoNodes();
    const workers = fleet.nodes.map((app) =>
      worker({ dataDir: app.dataDir, app, accountId: fleet.accountId }, { pollMs: 5 }),
    );
    try {
      const { webhook } = await createWebhook(
        fleet.nodes[0]!,
        { accountId: fleet.accountId, url: receiver.url, createdBy: '1' },
        loopback,
      );
      const id = await queueTestEvent(fleet.nodes[0]!, fleet.accountId, webhook.id, new Date());
      for (const w of workers) w.start();
      await receiver.waitFor(1);
      await sleep(500); // 100 more polls of each worker
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        [id],
      );
      assert.deepEqual(
        (await rowsOf(fleet.nodes[1]!)).map((r) => [r.status, r.attempts, r.claimedBy]),
        [['delivered', 1, null]],
      );
    } finally {
      for (const w of workers) await w.stop();
      await receiver.close();
      await fleet.close();
    }
  });

  test("two workers, a month's batches and test events: each sent once, in the order queued", async () => {
    const receiver = await startReceiver();
    const fleet = await twoNodes();
    const watched = cnpjs(2500);
    const workers: WebhookWorker[] = [];
    try {
      const env = { dataDir: fleet.nodes[0]!.dataDir, app: fleet.nodes[0]!, accountId: fleet.accountId };
      await watch(env, watched);
      const { webhook } = await createWebhook(
        fleet.nodes[0]!,
        { accountId: fleet.accountId, url: receiver.url, createdBy: '1' },
        loopback,
      );
      await sleep(5);
      // Each node imported the month (its own history.db) and queues it.
      for (const n of new Set(fleet.nodes)) recordMonth(n.dataDir, '2026-03', watched);
      for (let i = 0; i < 3; i++) await queueTestEvent(fleet.nodes[1]!, fleet.accountId, webhook.id, new Date());
      for (const app of fleet.nodes)
        workers.push(worker({ dataDir: app.dataDir, app, accountId: fleet.accountId }, { pollMs: 5 }));
      for (const w of workers) w.start();
      await receiver.waitFor(6);
      await sleep(500);
      const rows = await rowsOf(fleet.nodes[0]!);
      assert.equal(rows.length, 6, '3 test events and 3 batches, the month queued once');
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        rows.map((r) => r.id),
        'each once, in the order queued',
      );
      assert.ok(rows.every((r) => r.status === 'delivered' && r.attempts === 1));
    } finally {
      for (const w of workers) await w.stop();
      await receiver.close();
      await fleet.close();
    }
  });

  test("a claim whose holder died is taken over: at once by app.db's one deliverer, after its lease on PostgreSQL", async () => {
    const receiver = await startReceiver();
    const env = await makeEnv(open);
    let offset = 0;
    const w = worker(env, { now: () => new Date(Date.now() + offset), leaseMs: 60_000 });
    try {
      const { webhook } = await createWebhook(
        env.app,
        { accountId: env.accountId, url: receiver.url, createdBy: '1' },
        loopback,
      );
      const id = await queueTestEvent(env.app, env.accountId, webhook.id, new Date());
      // A node claimed it and died mid-attempt: its lease runs 60 s more.
      await env.app.db
        .updateTable('webhook_deliveries')
        .set({ claimed_by: 'dead-node', claimed_until: new Date(Date.now() + 60_000).toISOString() })
        .execute();
      w.start();
      if (backend === 'postgres') {
        await sleep(500);
        assert.equal(receiver.received.length, 0, 'not while the lease holds');
        assert.equal((await rowsOf(env.app))[0]!.claimedBy, 'dead-node');
        offset = 61_000; // the lease has ended
      }
      await receiver.waitFor(1);
      assert.equal(receiver.received[0]!.id, id);
      await sleep(200);
      assert.deepEqual(
        (await rowsOf(env.app)).map((r) => [r.status, r.attempts, r.claimedBy]),
        [['delivered', 1, null]],
      );
    } finally {
      await w.stop();
      await receiver.close();
    }
  });

  test('a worker that lost its claim records no failure over the new holder; a stopping worker gives its claims up', async () => {
    const receiver = await startReceiver(() => 'hang');
    const env = await makeEnv(open);
    const w = worker(env, { timeoutMs: 5000 });
    try {
      const { webhook } = await createWebhook(
        env.app,
        { accountId: env.accountId, url: receiver.url, createdBy: '1' },
        loopback,
      );
      await queueTestEvent(env.app, env.accountId, webhook.id, new Date());
      w.start();
      await receiver.waitFor(1);
      let rows = await rowsOf(env.app);
      assert.equal(rows[0]!.claimedBy, w.claimant, 'claimed by the worker sending it');
      // Its lease ended and another node took the delivery over.
      await env.app.db.updateTable('webhook_deliveries').set({ claimed_by: 'other-node' }).execute();
      await recordAttempt(
        env.app,
        rows[0]!.id,
        { ok: false, statusCode: 500, error: 'HTTP 500' },
        new Date(),
        w.claimant,
      );
      rows = await rowsOf(env.app);
      assert.deepEqual([rows[0]!.status, rows[0]!.attempts, rows[0]!.claimedBy], ['pending', 0, 'other-node']);
      await env.app.db.updateTable('webhook_deliveries').set({ claimed_by: w.claimant }).execute();
      await w.stop();
      rows = await rowsOf(env.app);
      assert.deepEqual([rows[0]!.status, rows[0]!.attempts, rows[0]!.claimedBy], ['pending', 0, null]);
    } finally {
      await w.stop();
      await receiver.close();
    }
  });

  test('claims: SKIP LOCKED and the lease, 20 claimers at once through separate connections', async () => {
    const fleet = await twoNodes();
    try {
      const { webhook } = await createWebhook(
        fleet.nodes[0]!,
        { accountId: fleet.accountId, url: 'http://127.0.0.1:9/h', createdBy: '1' },
        loopback,
      );
      const second = await createWebhook(
        fleet.nodes[0]!,
        { accountId: fleet.accountId, url: 'http://127.0.0.1:9/i', createdBy: '1' },
        loopback,
      );
      const now = new Date();
      const a1 = await queueTestEvent(fleet.nodes[0]!, fleet.accountId, webhook.id, now);
      await queueTestEvent(fleet.nodes[0]!, fleet.accountId, webhook.id, now);
      const b1 = await queueTestEvent(fleet.nodes[0]!, fleet.accountId, second.webhook.id, now);
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          claimDueDeliveries(fleet.nodes[i % 2]!, now, new Set(), 8, `claimer-${i}`, 60_000),
        ),
      );
      const got = claims.flat().map((d) => d.id);
      assert.deepEqual(got.sort(), [a1, b1].sort(), "each webhook's oldest, each claimed once");
      // While the leases hold nothing more is due: not the second of the first webhook (order).
      assert.deepEqual(await claimDueDeliveries(fleet.nodes[1]!, now, new Set(), 8, 'late', 60_000), []);
      const after = new Date(now.getTime() + 61_000);
      assert.deepEqual(
        (await claimDueDeliveries(fleet.nodes[1]!, after, new Set(), 8, 'late', 60_000)).map((d) => d.id).sort(),
        [a1, b1].sort(),
        'taken over once the leases ended',
      );
    } finally {
      await fleet.close();
    }
  });
});
