// Queueing: a month's watched changes in batches of at most BATCH_SIZE, the month marked in the same
// transaction so it is queued once; old history (recorded before the webhook existed) never sent;
// disabled webhooks skipped; test events and redelivery.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HistoryReader } from '../../../src/domain/history/reader.ts';
import { pruneFinished } from '../../../src/domain/webhooks/attempts.ts';
import {
  monthsToQueue,
  queueMonth,
  queueTestEvent,
  recentDeliveries,
  redeliver,
} from '../../../src/domain/webhooks/queue.ts';
import { createWebhook, setWebhookEnabled } from '../../../src/domain/webhooks/webhooks.ts';
import { cnpjs, makeEnv, recordMonth, watch } from './helpers.ts';

const policy = { allowHttp: true, allowPrivate: true };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a month is queued once per webhook, in batches, with the exact body of each', async () => {
  const env = await makeEnv();
  const reader = new HistoryReader(env.dataDir);
  try {
    const watched = cnpjs(25);
    watch(env, watched);
    recordMonth(env.dataDir, '2026-02', watched); // before the webhook: never sent
    await sleep(5);
    const { webhook } = await createWebhook(
      env.app.sqlite,
      { accountId: env.accountId, url: 'http://127.0.0.1:9/h', createdBy: '1' },
      policy,
    );
    assert.deepEqual(monthsToQueue(env.app.sqlite, reader.months()), []);
    await sleep(5);
    recordMonth(env.dataDir, '2026-03', [...watched, ...cnpjs(5, 90_000_000)]);
    const jobs = monthsToQueue(env.app.sqlite, reader.months());
    assert.deepEqual(jobs, [{ webhookId: webhook.id, accountId: env.accountId, month: '2026-03' }]);
    const now = new Date();
    // Two runs at once (reading the history yields to the event loop): the month is queued once.
    const runs = await Promise.all(
      [1, 2].map(() => queueMonth(env.app.sqlite, reader.connection()!, jobs[0]!, now, 10)),
    );
    assert.deepEqual(runs.sort(), [0, 3]);
    assert.equal(
      await queueMonth(env.app.sqlite, reader.connection()!, jobs[0]!, now, 10),
      0,
      'a later run adds nothing',
    );
    assert.deepEqual(monthsToQueue(env.app.sqlite, reader.months()), []);
    const rows = env.app.sqlite
      .prepare('SELECT id, body, month, event, status FROM webhook_deliveries ORDER BY rowid')
      .all() as { id: string; body: string }[];
    const bodies = rows.map((r) => JSON.parse(r.body));
    assert.deepEqual(
      bodies.map((b) => [b.event, b.month, b.batch.index, b.batch.count, b.data.length]),
      [
        ['changes', '2026-03', 1, 3, 10],
        ['changes', '2026-03', 2, 3, 10],
        ['changes', '2026-03', 3, 3, 5],
      ],
    );
    assert.deepEqual(
      bodies.map((b, i) => b.delivery_id === rows[i]!.id),
      [true, true, true],
    );
    assert.deepEqual(
      bodies.flatMap((b) => b.data.map((c: { cnpj: string }) => c.cnpj)),
      watched,
      'only the watched CNPJs, in order',
    );
    assert.deepEqual(bodies[0].data[0], {
      cnpj: watched[0],
      tipo: 'alteracao',
      campo: 'situacao_cadastral',
      antes: 'ATIVA',
      depois: 'INAPTA',
    });
    assert.deepEqual(env.app.sqlite.prepare('SELECT month, changes FROM webhook_months').all(), [
      { month: '2026-03', changes: 25 },
    ]);

    // A month without watched changes is marked with no delivery; a disabled webhook gets nothing.
    await sleep(5);
    recordMonth(env.dataDir, '2026-04', cnpjs(3, 90_000_000));
    const [april] = monthsToQueue(env.app.sqlite, reader.months());
    assert.equal(await queueMonth(env.app.sqlite, reader.connection()!, april!, now), 0);
    assert.equal(env.app.sqlite.prepare("SELECT changes FROM webhook_months WHERE month = '2026-04'").pluck().get(), 0);
    setWebhookEnabled(env.app.sqlite, env.accountId, webhook.id, false);
    recordMonth(env.dataDir, '2026-05', watched);
    assert.deepEqual(monthsToQueue(env.app.sqlite, reader.months()), []);
    assert.equal(
      await queueMonth(
        env.app.sqlite,
        reader.connection()!,
        { webhookId: webhook.id, accountId: env.accountId, month: '2026-05' },
        now,
      ),
      0,
    );
    assert.equal(
      env.app.sqlite.prepare("SELECT count(*) FROM webhook_months WHERE month = '2026-05'").pluck().get(),
      0,
      'queued once enabled again',
    );

    // Test event, then a redelivery: same id and body, pending again with a fresh window.
    const testId = queueTestEvent(env.app.sqlite, env.accountId, webhook.id, now);
    assert.deepEqual(
      JSON.parse(
        env.app.sqlite.prepare('SELECT body FROM webhook_deliveries WHERE id = ?').pluck().get(testId) as string,
      ),
      { event: 'test', delivery_id: testId, month: null, data: [] },
    );
    env.app.sqlite.prepare("UPDATE webhook_deliveries SET status = 'failed' WHERE id = ?").run(rows[0]!.id);
    const later = new Date(now.getTime() + 48 * 3600_000);
    redeliver(env.app.sqlite, env.accountId, rows[0]!.id, later);
    const again = env.app.sqlite
      .prepare('SELECT status, body, next_attempt_at, retry_until FROM webhook_deliveries WHERE id = ?')
      .get(rows[0]!.id);
    assert.deepEqual(again, {
      status: 'pending',
      body: rows[0]!.body,
      next_attempt_at: later.toISOString(),
      retry_until: new Date(later.getTime() + 24 * 3600_000).toISOString(),
    });
    assert.throws(() => redeliver(env.app.sqlite, env.accountId + 1, rows[0]!.id, later), /não encontrada/);
    assert.throws(() => queueTestEvent(env.app.sqlite, env.accountId + 1, webhook.id, now), /não encontrado/);
    assert.equal(recentDeliveries(env.app.sqlite, env.accountId, webhook.id)[0]!.id, testId, 'newest first');

    // 90 days on, finished deliveries are deleted, pending ones kept; the months stay queued.
    env.app.sqlite.prepare("UPDATE webhook_deliveries SET status = 'delivered' WHERE id = ?").run(rows[1]!.id);
    env.app.sqlite.prepare("UPDATE webhook_deliveries SET status = 'failed' WHERE id = ?").run(rows[2]!.id);
    assert.equal(pruneFinished(env.app.sqlite, new Date(now.getTime() + 89 * 86400_000)), 0);
    assert.equal(pruneFinished(env.app.sqlite, new Date(now.getTime() + 91 * 86400_000)), 2);
    assert.equal(
      env.app.sqlite.prepare('SELECT count(*) FROM webhook_deliveries').pluck().get(),
      2,
      'the redelivered one and the test event, pending',
    );
    assert.deepEqual(monthsToQueue(env.app.sqlite, reader.months()), []);
  } finally {
    reader.close();
    await env.cleanup();
  }
});
