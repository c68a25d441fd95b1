// The delivery worker against real receivers on loopback: signed requests that verify with the
// secret shown at registration; a receiver that fails (500, then a timeout) and recovers gets every
// batch exactly as queued, in order; a hanging endpoint does not hold another's deliveries; a
// destination resolving to loopback is refused at connect time unless private networks are allowed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryReader } from '../../../src/domain/history/reader.ts';
import { queueTestEvent } from '../../../src/domain/webhooks/queue.ts';
import { createWebhook } from '../../../src/domain/webhooks/webhooks.ts';
import { WebhookWorker } from '../../../src/domain/webhooks/worker.ts';
import { cnpjs, makeEnv, recordMonth, startReceiver, verifies, watch, type Env } from './helpers.ts';

const loopback = { allowHttp: true, allowPrivate: true };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function worker(env: Env, extra: Partial<ConstructorParameters<typeof WebhookWorker>[0]> = {}) {
  return new WebhookWorker({
    app: env.app.sqlite,
    history: new HistoryReader(env.dataDir),
    policy: loopback,
    pollMs: 50,
    queueEveryMs: 100,
    timeoutMs: 500,
    ...extra,
  });
}

const rowsOf = (env: Env) =>
  env.app.sqlite
    .prepare(
      'SELECT id, body, status, attempts, last_status_code AS code, last_error AS error FROM webhook_deliveries ORDER BY rowid',
    )
    .all() as {
    id: string;
    body: string;
    status: string;
    attempts: number;
    code: number | null;
    error: string | null;
  }[];

test('signed deliveries verify with the secret shown at registration', async () => {
  const env = await makeEnv();
  const receiver = await startReceiver();
  const w = worker(env);
  try {
    const { webhook, secret } = await createWebhook(
      env.app.sqlite,
      { accountId: env.accountId, url: receiver.url, createdBy: '1' },
      loopback,
    );
    const id = queueTestEvent(env.app.sqlite, env.accountId, webhook.id, new Date());
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
      rowsOf(env).map((r) => [r.status, r.attempts, r.code]),
      [['delivered', 1, 200]],
    );
  } finally {
    await w.stop();
    await receiver.close();
    await env.cleanup();
  }
});

test('a month recorded while the worker runs is queued on its timer and sent', async () => {
  const env = await makeEnv();
  const receiver = await startReceiver();
  const w = worker(env);
  try {
    watch(env, cnpjs(3));
    await createWebhook(env.app.sqlite, { accountId: env.accountId, url: receiver.url, createdBy: '1' }, loopback);
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
    await env.cleanup();
  }
});

test('a receiver that fails (500, then a timeout) and recovers gets every batch as queued, in order', async () => {
  const env = await makeEnv();
  // Answers: batch 1 → 500, batch 1 → hangs (timeout), then 200 for everything.
  const receiver = await startReceiver((n) => (n === 0 ? 500 : n === 1 ? 'hang' : 200));
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const w = worker(env, { now, log: (l) => (l.includes('failed') ? (offset += 2 * 3600_000) : 0) });
  try {
    const watched = cnpjs(2500);
    watch(env, watched);
    await createWebhook(env.app.sqlite, { accountId: env.accountId, url: receiver.url, createdBy: '1' }, loopback);
    await sleep(5);
    recordMonth(env.dataDir, '2026-03', watched);
    w.start();
    await receiver.waitFor(5);
    await sleep(200);
    const rows = rowsOf(env);
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
    await env.cleanup();
  }
});

test('failures are recorded with their reason and retried after the backoff', async () => {
  const env = await makeEnv();
  const receiver = await startReceiver(() => 503);
  const w = worker(env);
  try {
    const { webhook } = await createWebhook(
      env.app.sqlite,
      { accountId: env.accountId, url: receiver.url, createdBy: '1' },
      loopback,
    );
    queueTestEvent(env.app.sqlite, env.accountId, webhook.id, new Date());
    w.start();
    await receiver.waitFor(1);
    await sleep(300);
    const row = env.app.sqlite
      .prepare(
        'SELECT status, attempts, last_status_code AS code, last_error AS error, next_attempt_at AS next FROM webhook_deliveries',
      )
      .get() as Record<string, unknown>;
    assert.deepEqual([row.status, row.attempts, row.code, row.error], ['pending', 1, 503, 'HTTP 503']);
    const delay = (Date.parse(row.next as string) - Date.now()) / 1000;
    assert.ok(delay > 20 && delay <= 36, `next attempt in ${delay} s`);
    assert.equal(receiver.received.length, 1, 'not before its time');
  } finally {
    await w.stop();
    await receiver.close();
    await env.cleanup();
  }
});

test('a hanging endpoint does not hold another webhook', async () => {
  const env = await makeEnv();
  const slow = await startReceiver(() => 'hang');
  const fast = await startReceiver();
  const w = worker(env, { timeoutMs: 5000 });
  try {
    const a = await createWebhook(
      env.app.sqlite,
      { accountId: env.accountId, url: slow.url, createdBy: '1' },
      loopback,
    );
    const b = await createWebhook(
      env.app.sqlite,
      { accountId: env.accountId, url: fast.url, createdBy: '1' },
      loopback,
    );
    for (let i = 0; i < 3; i++) queueTestEvent(env.app.sqlite, env.accountId, a.webhook.id, new Date());
    for (let i = 0; i < 3; i++) queueTestEvent(env.app.sqlite, env.accountId, b.webhook.id, new Date());
    const started = Date.now();
    w.start();
    await fast.waitFor(3);
    assert.ok(Date.now() - started < 2000, `the fast endpoint got its 3 in ${Date.now() - started} ms`);
    assert.equal(slow.received.length, 1, 'one in flight per webhook');
  } finally {
    await w.stop();
    await slow.close();
    await fast.close();
    await env.cleanup();
  }
});

test('SSRF at connect time: a name resolving to loopback, or a loopback literal, is refused', async () => {
  const env = await makeEnv();
  const receiver = await startReceiver();
  const w = worker(env, { policy: { allowHttp: true } });
  try {
    const port = new URL(receiver.url).port;
    // Registered while allowed (as if the name resolved elsewhere then: DNS rebinding).
    const byName = await createWebhook(
      env.app.sqlite,
      { accountId: env.accountId, url: `http://localhost:${port}/h`, createdBy: '1' },
      loopback,
    );
    const byIp = await createWebhook(
      env.app.sqlite,
      { accountId: env.accountId, url: `http://127.0.0.1:${port}/h`, createdBy: '1' },
      loopback,
    );
    queueTestEvent(env.app.sqlite, env.accountId, byName.webhook.id, new Date());
    queueTestEvent(env.app.sqlite, env.accountId, byIp.webhook.id, new Date());
    w.start();
    await sleep(500);
    assert.equal(receiver.received.length, 0, 'nothing reached the receiver');
    const rows = rowsOf(env);
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
    await env.cleanup();
  }
});
