// Queueing, on both backends: a month's watched changes in batches of at most BATCH_SIZE, the month
// marked in the same transaction so it is queued once (also by several nodes queueing it at once);
// old history (recorded before the webhook existed) never sent; disabled webhooks skipped; test
// events and redelivery.
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
import { openAppStore, type OpenAppStore } from '../../../src/storage/app/store.ts';
import { forBackends, freshDatabaseUrl, tempDataDir } from '../../helpers/app-backends.ts';
import { cnpjs, deliveriesInOrder, insertAccount, makeEnv, recordMonth, watch } from './helpers.ts';

const policy = { allowHttp: true, allowPrivate: true };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const setStatus = (app: OpenAppStore, id: string, status: 'delivered' | 'failed') =>
  app.db.updateTable('webhook_deliveries').set({ status }).where('id', '=', id).execute();

forBackends('webhook queue', ({ backend, open }) => {
  test('a month is queued once per webhook, in batches, with the exact body of each', async () => {
    const env = await makeEnv(open);
    const reader = new HistoryReader(env.dataDir);
    const app = env.app;
    try {
      const watched = cnpjs(25);
      await watch(env, watched);
      recordMonth(env.dataDir, '2026-02', watched); // before the webhook: never sent
      await sleep(5);
      const { webhook } = await createWebhook(
        app,
        { accountId: env.accountId, url: 'http://127.0.0.1:9/h', createdBy: '1' },
        policy,
      );
      assert.deepEqual(await monthsToQueue(app, reader.months()), []);
      await sleep(5);
      recordMonth(env.dataDir, '2026-03', [...watched, ...cnpjs(5, 90_000_000)]);
      const jobs = await monthsToQueue(app, reader.months());
      assert.deepEqual(jobs, [{ webhookId: webhook.id, accountId: env.accountId, month: '2026-03' }]);
      const now = new Date();
      // Two runs at once (reading the history yields to the event loop): the month is queued once.
      const runs = await Promise.all([1, 2].map(() => queueMonth(app, reader.connection()!, jobs[0]!, now, 10)));
      assert.deepEqual(runs.sort(), [0, 3]);
      assert.equal(await queueMonth(app, reader.connection()!, jobs[0]!, now, 10), 0, 'a later run adds nothing');
      assert.deepEqual(await monthsToQueue(app, reader.months()), []);
      const rows = await deliveriesInOrder(app);
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
      assert.deepEqual(await app.db.selectFrom('webhook_months').select(['month', 'changes']).execute(), [
        { month: '2026-03', changes: 25 },
      ]);

      // A month without watched changes is marked with no delivery; a disabled webhook gets nothing.
      await sleep(5);
      recordMonth(env.dataDir, '2026-04', cnpjs(3, 90_000_000));
      const [april] = await monthsToQueue(app, reader.months());
      assert.equal(await queueMonth(app, reader.connection()!, april!, now), 0);
      assert.equal(
        (await app.db.selectFrom('webhook_months').select('changes').where('month', '=', '2026-04').executeTakeFirst())
          ?.changes,
        0,
      );
      await setWebhookEnabled(app, env.accountId, webhook.id, false);
      recordMonth(env.dataDir, '2026-05', watched);
      assert.deepEqual(await monthsToQueue(app, reader.months()), []);
      assert.equal(
        await queueMonth(
          app,
          reader.connection()!,
          { webhookId: webhook.id, accountId: env.accountId, month: '2026-05' },
          now,
        ),
        0,
      );
      assert.equal(
        (await app.db.selectFrom('webhook_months').selectAll().where('month', '=', '2026-05').execute()).length,
        0,
        'queued once enabled again',
      );

      // Test event, then a redelivery: same id and body, pending again with a fresh window.
      const testId = await queueTestEvent(app, env.accountId, webhook.id, now);
      assert.deepEqual(
        JSON.parse(
          (
            await app.db
              .selectFrom('webhook_deliveries')
              .select('body')
              .where('id', '=', testId)
              .executeTakeFirstOrThrow()
          ).body,
        ),
        { event: 'test', delivery_id: testId, month: null, data: [] },
      );
      await setStatus(app, rows[0]!.id, 'failed');
      const later = new Date(now.getTime() + 48 * 3600_000);
      await redeliver(app, env.accountId, rows[0]!.id, later);
      const again = await app.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'body', 'next_attempt_at', 'retry_until'])
        .where('id', '=', rows[0]!.id)
        .executeTakeFirst();
      assert.deepEqual(again, {
        status: 'pending',
        body: rows[0]!.body,
        next_attempt_at: later.toISOString(),
        retry_until: new Date(later.getTime() + 24 * 3600_000).toISOString(),
      });
      await assert.rejects(redeliver(app, env.accountId + 1, rows[0]!.id, later), /não encontrada/);
      await assert.rejects(queueTestEvent(app, env.accountId + 1, webhook.id, now), /não encontrado/);
      const recent = await recentDeliveries(app, env.accountId, webhook.id);
      assert.equal(recent[0]!.id, testId, 'newest first');
      assert.deepEqual(
        recent.map((d) => [d.event, d.batchIndex, d.batchCount]),
        [
          ['test', null, null],
          ['changes', 3, 3],
          ['changes', 2, 3],
          ['changes', 1, 3],
        ],
      );

      // 90 days on, finished deliveries are deleted, pending ones kept; the months stay queued.
      await setStatus(app, rows[1]!.id, 'delivered');
      await setStatus(app, rows[2]!.id, 'failed');
      assert.equal(await pruneFinished(app, new Date(now.getTime() + 89 * 86400_000)), 0);
      assert.equal(await pruneFinished(app, new Date(now.getTime() + 91 * 86400_000)), 2);
      assert.equal(
        (await app.db.selectFrom('webhook_deliveries').select('id').execute()).length,
        2,
        'the redelivered one and the test event, pending',
      );
      assert.deepEqual(await monthsToQueue(app, reader.months()), []);
    } finally {
      reader.close();
    }
  });

  test('several nodes queueing the same month at once queue it once', async () => {
    // Each node imported the month itself (its own history.db) and runs a worker: the month's
    // deliveries must be queued once in the shared app state.
    const url = backend === 'postgres' ? await freshDatabaseUrl() : undefined;
    const first = await openAppStore(tempDataDir(), url);
    const nodes: OpenAppStore[] = [first];
    const readers: HistoryReader[] = [];
    try {
      // SQLite: one store (one process's connection takes the transactions in turn).
      if (url) for (let i = 1; i < 4; i++) nodes.push(await openAppStore(tempDataDir(), url));
      const accountId = await insertAccount(first, 'Acme');
      const env = { dataDir: first.dataDir, app: first, accountId };
      const watched = cnpjs(25);
      await watch(env, watched);
      const { webhook } = await createWebhook(
        first,
        { accountId, url: 'http://127.0.0.1:9/h', createdBy: '1' },
        policy,
      );
      await sleep(5);
      for (const n of nodes) {
        recordMonth(n.dataDir, '2026-03', watched);
        readers.push(new HistoryReader(n.dataDir));
      }
      const job = { webhookId: webhook.id, accountId, month: '2026-03' };
      const now = new Date();
      const runs = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          queueMonth(nodes[i % nodes.length]!, readers[i % readers.length]!.connection()!, job, now, 10),
        ),
      );
      assert.deepEqual(
        runs.sort((a, b) => a - b),
        [...Array<number>(11).fill(0), 3],
        'one run queued the 3 batches, the others nothing',
      );
      assert.equal((await first.db.selectFrom('webhook_deliveries').select('id').execute()).length, 3);
      assert.equal((await first.db.selectFrom('webhook_months').select('month').execute()).length, 1);
    } finally {
      for (const r of readers) r.close();
      for (const n of nodes) await n.close();
    }
  });
});
