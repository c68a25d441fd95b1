// The real `cnpj-api serve` delivering webhooks: a process SIGKILLed while a delivery is in flight
// sends it again after the restart (same id, same body) and queues the month no second time; with
// --workers 2 only one process delivers, so each delivery arrives once. Fleet mode: two nodes on
// one PostgreSQL, every process delivering, each delivery arrives once, in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openAppStore, type AppStore } from '../../src/storage/app/store.ts';
import { queueTestEvent } from '../../src/domain/webhooks/queue.ts';
import { createWebhook } from '../../src/domain/webhooks/webhooks.ts';
import { freshDatabaseUrl } from '../helpers/app-backends.ts';
import {
  cnpjs,
  deliveriesInOrder,
  insertAccount,
  recordMonth,
  startReceiver,
  watch,
} from '../domain/webhooks/helpers.ts';
import { killServe, makeAccount, sleep, spawnServe, tempDataDir, withAppDb, type ServeProcess } from './helpers.ts';

/** `fn` on the data dir's app state, closed once `fn` has finished. */
async function withStore<T>(dataDir: string, fn: (app: AppStore) => Promise<T>): Promise<T> {
  const app = await openAppStore(dataDir);
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

const FLAGS = ['--webhooks-allow-http', '--webhooks-allow-private'];
const loopback = { allowHttp: true, allowPrivate: true };

async function setup(receiverUrl: string) {
  const dataDir = tempDataDir();
  const { accountId } = await makeAccount(dataDir, 'Ganchos');
  const watched = cnpjs(1500);
  const webhookId = await withStore(dataDir, async (app) => {
    for (let i = 0; i < watched.length; i += 500)
      await app.db
        .insertInto('watchlist')
        .values(
          watched.slice(i, i + 500).map((cnpj) => ({ account_id: accountId, cnpj, added_at: '2026-01-01T00:00:00Z' })),
        )
        .execute();
    return (await createWebhook(app, { accountId, url: receiverUrl, createdBy: '1' }, loopback)).webhook.id;
  });
  return { dataDir, accountId, watched, webhookId };
}

const deliveries = (dataDir: string) =>
  withAppDb(
    dataDir,
    (s) =>
      s.prepare('SELECT id, body, status, attempts FROM webhook_deliveries ORDER BY rowid').all() as {
        id: string;
        body: string;
        status: string;
        attempts: number;
      }[],
  );

test('a server killed mid-delivery delivers after restart: same ids, same bodies, queued once', async () => {
  let holding = true;
  const receiver = await startReceiver(() => (holding ? 'hang' : 200));
  const { dataDir, watched } = await setup(receiver.url);
  await sleep(5);
  recordMonth(dataDir, '2026-03', watched);
  let server = await spawnServe(dataDir, FLAGS);
  try {
    await receiver.waitFor(1);
    const inFlight = receiver.received[0]!;
    await killServe(server);
    const before = await deliveries(dataDir);
    assert.equal(before.length, 2, '1,500 changes: two batches');
    assert.deepEqual(
      before.map((d) => [d.status, d.attempts]),
      [
        ['pending', 0],
        ['pending', 0],
      ],
      'the attempt cut short was not recorded',
    );
    assert.equal(inFlight.id, before[0]!.id);

    holding = false;
    server = await spawnServe(dataDir, FLAGS);
    await receiver.waitFor(3);
    const deadline = Date.now() + 10_000;
    while ((await deliveries(dataDir)).some((d) => d.status !== 'delivered') && Date.now() < deadline) await sleep(100);
    const after = await deliveries(dataDir);
    assert.deepEqual(
      after.map((d) => [d.id, d.status, d.attempts]),
      before.map((d) => [d.id, 'delivered', 1]),
      'the same deliveries, nothing queued twice',
    );
    assert.deepEqual(
      receiver.received.map((r) => r.id),
      [before[0]!.id, before[0]!.id, before[1]!.id],
    );
    for (const r of receiver.received) assert.equal(r.body, before.find((d) => d.id === r.id)!.body);
    assert.equal(await withAppDb(dataDir, (s) => s.prepare('SELECT count(*) FROM webhook_months').pluck().get()), 1);
  } finally {
    await killServe(server);
    await receiver.close();
  }
});

test('serve --workers 2: one process delivers, each delivery arrives once', async () => {
  const receiver = await startReceiver();
  const { dataDir, accountId, webhookId } = await setup(receiver.url);
  const ids = await withStore(dataDir, async (app) => {
    const out: string[] = [];
    for (let i = 0; i < 4; i++) out.push(await queueTestEvent(app, accountId, webhookId, new Date()));
    return out;
  });
  const server = await spawnServe(dataDir, [...FLAGS, '--workers', '2']);
  try {
    await receiver.waitFor(4);
    await sleep(3000); // a second deliverer would poll every 2 s
    assert.deepEqual(
      receiver.received.map((r) => r.id),
      ids,
    );
  } finally {
    await killServe(server);
    await receiver.close();
  }
});

test('fleet mode: two nodes on one PostgreSQL (one with --workers 2), every process delivering: each delivery once, in order', async () => {
  const receiver = await startReceiver();
  const url = await freshDatabaseUrl();
  const dirs = [tempDataDir(), tempDataDir()];
  const app = await openAppStore(dirs[0]!, url);
  const servers: ServeProcess[] = [];
  try {
    const accountId = await insertAccount(app, 'Ganchos');
    const watched = cnpjs(1500);
    await watch({ dataDir: dirs[0]!, app, accountId }, watched);
    const { webhook } = await createWebhook(app, { accountId, url: receiver.url, createdBy: '1' }, loopback);
    for (let i = 0; i < 4; i++) await queueTestEvent(app, accountId, webhook.id, new Date());
    await sleep(5);
    // Each node imported the month itself: both find it to queue.
    for (const d of dirs) recordMonth(d, '2026-03', watched);
    const db = ['--database-url', url];
    servers.push(await spawnServe(dirs[0]!, [...FLAGS, ...db, '--workers', '2']));
    servers.push(await spawnServe(dirs[1]!, [...FLAGS, ...db]));
    await receiver.waitFor(6);
    await sleep(3000); // every process polls every 2 s
    const rows = await deliveriesInOrder(app);
    assert.equal(rows.length, 6, '4 test events and the month in 2 batches, queued once');
    assert.deepEqual(
      receiver.received.map((r) => r.id),
      rows.map((r) => r.id),
      'each delivery once, in the order queued',
    );
    assert.ok(rows.every((r) => r.status === 'delivered' && r.attempts === 1 && r.claimed_by === null));
  } finally {
    for (const s of servers) await killServe(s);
    await app.close();
    await receiver.close();
  }
});
