// Queueing deliveries (`webhook_deliveries`, docs/webhooks.md): a recorded month's changes
// touching the account's watchlist, in batches, once per webhook and month; test events; and
// redelivery from the web app. A row is the exact body sent on every attempt.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { watchedChanges } from '../history/watched.ts';
import type { ChangeItem } from '../history/item.ts';
import { watchedCnpjs } from '../watchlist/read.ts';
import type { HistoryMonth } from '../../storage/history/schema.ts';
import { jsonInteger } from '../../storage/app/dialect.ts';
import { writeTransaction, type AppStore } from '../../storage/app/store.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { RETRY_WINDOW_MS } from './backoff.ts';
import { WebhookError } from './errors.ts';

/** Changes per delivery at most. */
export const BATCH_SIZE = 1000;

export interface ChangesBody {
  event: 'changes';
  delivery_id: string;
  month: string;
  /** 1-based: batch 2 of 3. */
  batch: { index: number; count: number };
  data: ChangeItem[];
}

async function insertDelivery(
  store: AppStore,
  webhookId: number,
  event: 'changes' | 'test',
  month: string | null,
  body: (id: string) => string,
  now: Date,
): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  await store.db
    .insertInto('webhook_deliveries')
    .values({
      id,
      webhook_id: webhookId,
      event,
      month,
      body: body(id),
      created_at: at,
      next_attempt_at: at,
      retry_until: new Date(now.getTime() + RETRY_WINDOW_MS).toISOString(),
    })
    .execute();
  return id;
}

/**
 * The (webhook, month) pairs still to queue: enabled webhooks, months recorded at or after the
 * webhook was created (a new webhook gets no old history), not yet in webhook_months. Oldest month
 * first. Cheap: a few small reads, run on every check.
 */
export async function monthsToQueue(
  store: AppStore,
  months: readonly HistoryMonth[],
): Promise<{ webhookId: number; accountId: number; month: string }[]> {
  if (months.length === 0) return [];
  const hooks = await store.db
    .selectFrom('webhooks')
    .select(['id', 'account_id', 'created_at'])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  const queued = await store.db.selectFrom('webhook_months').select(['webhook_id', 'month']).execute();
  const done = new Set(queued.map((r) => `${r.webhook_id} ${r.month}`));
  const ascending = [...months].sort((a, b) => a.month.localeCompare(b.month));
  const out: { webhookId: number; accountId: number; month: string }[] = [];
  for (const h of hooks) {
    const created = Date.parse(h.created_at);
    for (const m of ascending) {
      if (Date.parse(m.recordedAt) >= created && !done.has(`${h.id} ${m.month}`))
        out.push({ webhookId: h.id, accountId: h.account_id, month: m.month });
    }
  }
  return out;
}

/** CNPJs read per turn of the event loop: one statement, two primary-key probes each (docs/benchmarks.md). */
const SLICE = 100;

/**
 * The month's changes for the account's watchlist, read a slice at a time: a 50,000-CNPJ watchlist
 * is 100,000 index reads (a fraction of a second in one statement, seconds when each CNPJ
 * prepared its own two: docs/benchmarks.md), which must not stall the requests the same process
 * serves.
 */
async function watchedChangesInSlices(
  store: AppStore,
  history: Sqlite,
  accountId: number,
  month: string,
): Promise<ChangeItem[]> {
  const cnpjs = await watchedCnpjs(store, accountId);
  const out: ChangeItem[] = [];
  for (let i = 0; i < cnpjs.length; i += SLICE) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    for (const c of watchedChanges(history, month, cnpjs.slice(i, i + SLICE))) out.push(c);
  }
  return out;
}

/**
 * Queues one month for one webhook: the changes read from history.db, then the deliveries and the
 * webhook_months row in one transaction, so the month is queued exactly once whatever restarts,
 * and however many nodes import the month and run a worker: webhook_months' primary key (webhook,
 * month) decides, as the first statement of the transaction. A second inserter, here or on another
 * node, finds the row (PostgreSQL: waits on the first one's uncommitted row, then finds it) and adds
 * nothing. A month without changes for the watchlist is marked with no delivery. Returns the
 * deliveries added.
 */
export async function queueMonth(
  store: AppStore,
  history: Sqlite,
  job: { webhookId: number; accountId: number; month: string },
  now: Date,
  batchSize = BATCH_SIZE,
): Promise<number> {
  const changes = await watchedChangesInSlices(store, history, job.accountId, job.month);
  const count = Math.ceil(changes.length / batchSize);
  return writeTransaction(store, async (tx) => {
    // INSERT … SELECT: only for an enabled webhook that still exists. The CASTs type the
    // parameters for PostgreSQL, which reads an untyped one in a select list as text.
    const marked = await tx.db
      .insertInto('webhook_months')
      .columns(['webhook_id', 'month', 'queued_at', 'changes'])
      .expression((eb) =>
        eb
          .selectFrom('webhooks')
          .select([
            'id',
            sql<string>`CAST(${job.month} AS TEXT)`.as('month'),
            sql<string>`CAST(${now.toISOString()} AS TEXT)`.as('queued_at'),
            sql<number>`CAST(${changes.length} AS INTEGER)`.as('changes'),
          ])
          .where('id', '=', job.webhookId)
          .where('enabled', '=', 1),
      )
      .onConflict((oc) => oc.columns(['webhook_id', 'month']).doNothing())
      .executeTakeFirst();
    if (Number(marked.numInsertedOrUpdatedRows ?? 0) === 0) return 0;
    for (let i = 0; i < count; i++) {
      const data = changes.slice(i * batchSize, (i + 1) * batchSize);
      await insertDelivery(
        tx,
        job.webhookId,
        'changes',
        job.month,
        (id) => {
          const body: ChangesBody = {
            event: 'changes',
            delivery_id: id,
            month: job.month,
            batch: { index: i + 1, count },
            data,
          };
          return JSON.stringify(body);
        },
        now,
      );
    }
    return count;
  });
}

/** A test event for one of the account's webhooks; returns its delivery id. */
export async function queueTestEvent(
  store: AppStore,
  accountId: number,
  webhookId: number,
  now: Date,
): Promise<string> {
  const owned = await store.db
    .selectFrom('webhooks')
    .select('id')
    .where('id', '=', webhookId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!owned) throw new WebhookError('not_found', 'Webhook não encontrado.');
  return insertDelivery(
    store,
    webhookId,
    'test',
    null,
    (id) => JSON.stringify({ event: 'test', delivery_id: id, month: null, data: [] }),
    now,
  );
}

/**
 * Sends a delivery again: same id, same body, back to pending now with a fresh 24 h window (also
 * "try now" for one waiting on its backoff).
 */
export async function redeliver(store: AppStore, accountId: number, deliveryId: string, now: Date): Promise<void> {
  const r = await store.db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: now.toISOString(),
      retry_until: new Date(now.getTime() + RETRY_WINDOW_MS).toISOString(),
      delivered_at: null,
    })
    .where('id', '=', deliveryId)
    .where('webhook_id', 'in', (eb) =>
      eb.selectFrom('webhooks').select('webhooks.id').where('webhooks.account_id', '=', accountId),
    )
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new WebhookError('not_found', 'Entrega não encontrada.');
}

export interface DeliveryInfo {
  id: string;
  event: 'changes' | 'test';
  month: string | null;
  /** Batch 1..count of its month (null for a test event). */
  batchIndex: number | null;
  batchCount: number | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

/** A field of the body's `batch`, read by the database (bodies are up to a few hundred KB). */
function batchField(store: AppStore, field: 'index' | 'count') {
  return jsonInteger(store, 'd.body', ['batch', field]);
}

/** A webhook's newest deliveries first (the web app's list). */
export async function recentDeliveries(
  store: AppStore,
  accountId: number,
  webhookId: number,
  limit = 20,
): Promise<DeliveryInfo[]> {
  return store.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.event',
      'd.month',
      batchField(store, 'index').as('batchIndex'),
      batchField(store, 'count').as('batchCount'),
      'd.status',
      'd.attempts',
      'd.created_at as createdAt',
      'd.next_attempt_at as nextAttemptAt',
      'd.last_attempt_at as lastAttemptAt',
      'd.last_status_code as lastStatusCode',
      'd.last_error as lastError',
      'd.delivered_at as deliveredAt',
    ])
    .where('d.webhook_id', '=', webhookId)
    .where('w.account_id', '=', accountId)
    .orderBy('d.seq', 'desc')
    .limit(limit)
    .execute();
}
