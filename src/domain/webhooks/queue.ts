// Queueing deliveries (app.db `webhook_deliveries`, docs/webhooks.md): a recorded month's changes
// touching the account's watchlist, in batches, once per webhook and month; test events; and
// redelivery from the web app. A row is the exact body sent on every attempt.
import { randomUUID } from 'node:crypto';
import { watchedChanges } from '../history/watched.ts';
import type { ChangeItem } from '../history/item.ts';
import { watchedCnpjs } from '../watchlist/read.ts';
import type { HistoryMonth } from '../../storage/history/schema.ts';
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

const INSERT = `INSERT INTO webhook_deliveries (id, webhook_id, event, month, body, created_at, next_attempt_at, retry_until)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

function insertDelivery(
  app: Sqlite,
  webhookId: number,
  event: 'changes' | 'test',
  month: string | null,
  body: (id: string) => string,
  now: Date,
): string {
  const id = randomUUID();
  const at = now.toISOString();
  app
    .prepare(INSERT)
    .run(id, webhookId, event, month, body(id), at, at, new Date(now.getTime() + RETRY_WINDOW_MS).toISOString());
  return id;
}

/**
 * The (webhook, month) pairs still to queue: enabled webhooks, months recorded at or after the
 * webhook was created (a new webhook gets no old history), not yet in webhook_months. Oldest month
 * first. Cheap: a few small reads, run on every check.
 */
export function monthsToQueue(
  app: Sqlite,
  months: readonly HistoryMonth[],
): { webhookId: number; accountId: number; month: string }[] {
  if (months.length === 0) return [];
  const hooks = app.prepare('SELECT id, account_id, created_at FROM webhooks WHERE enabled = 1 ORDER BY id').all() as {
    id: number;
    account_id: number;
    created_at: string;
  }[];
  const done = new Set(app.prepare("SELECT webhook_id || ' ' || month FROM webhook_months").pluck().all() as string[]);
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

/** CNPJs read per turn of the event loop: one statement, two primary-key probes each (~4 µs a CNPJ). */
const SLICE = 100;

/**
 * The month's changes for the account's watchlist, read a slice at a time: a 50,000-CNPJ watchlist
 * is 100,000 index reads (~0.2 s in one statement; 2.4-10 s on a loaded machine when each CNPJ
 * prepared its own two), which must not stall the requests the same process serves.
 */
async function watchedChangesInSlices(
  app: Sqlite,
  history: Sqlite,
  accountId: number,
  month: string,
): Promise<ChangeItem[]> {
  const cnpjs = watchedCnpjs(app, accountId);
  const out: ChangeItem[] = [];
  for (let i = 0; i < cnpjs.length; i += SLICE) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    for (const c of watchedChanges(history, month, cnpjs.slice(i, i + SLICE))) out.push(c);
  }
  return out;
}

/**
 * Queues one month for one webhook: the changes read from history.db, then the deliveries and the
 * webhook_months row in one app.db transaction, so the month is queued exactly once whatever
 * restarts (a second call, here or in another process, finds the row and adds nothing). A month
 * without changes for the watchlist is marked with no delivery. Returns the deliveries added.
 */
export async function queueMonth(
  app: Sqlite,
  history: Sqlite,
  job: { webhookId: number; accountId: number; month: string },
  now: Date,
  batchSize = BATCH_SIZE,
): Promise<number> {
  const changes = await watchedChangesInSlices(app, history, job.accountId, job.month);
  const count = Math.ceil(changes.length / batchSize);
  return app
    .transaction(() => {
      const marked = app
        .prepare(
          'INSERT INTO webhook_months (webhook_id, month, queued_at, changes) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ? AND enabled = 1) ON CONFLICT DO NOTHING',
        )
        .run(job.webhookId, job.month, now.toISOString(), changes.length, job.webhookId);
      if (marked.changes === 0) return 0;
      for (let i = 0; i < count; i++) {
        const data = changes.slice(i * batchSize, (i + 1) * batchSize);
        insertDelivery(
          app,
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
    })
    .immediate();
}

/** A test event for one of the account's webhooks; returns its delivery id. */
export function queueTestEvent(app: Sqlite, accountId: number, webhookId: number, now: Date): string {
  const owned = app.prepare('SELECT 1 FROM webhooks WHERE id = ? AND account_id = ?').get(webhookId, accountId);
  if (!owned) throw new WebhookError('not_found', 'Webhook não encontrado.');
  return insertDelivery(
    app,
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
export function redeliver(app: Sqlite, accountId: number, deliveryId: string, now: Date): void {
  const r = app
    .prepare(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, retry_until = ?, delivered_at = NULL
       WHERE id = ? AND webhook_id IN (SELECT id FROM webhooks WHERE account_id = ?)`,
    )
    .run(now.toISOString(), new Date(now.getTime() + RETRY_WINDOW_MS).toISOString(), deliveryId, accountId);
  if (r.changes === 0) throw new WebhookError('not_found', 'Entrega não encontrada.');
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

/** A webhook's newest deliveries first (the web app's list). */
export function recentDeliveries(app: Sqlite, accountId: number, webhookId: number, limit = 20): DeliveryInfo[] {
  return app
    .prepare(
      `SELECT d.id, d.event, d.month, json_extract(d.body, '$.batch.index') AS batchIndex, json_extract(d.body, '$.batch.count') AS batchCount, d.status, d.attempts, d.created_at AS createdAt, d.next_attempt_at AS nextAttemptAt,
         d.last_attempt_at AS lastAttemptAt, d.last_status_code AS lastStatusCode, d.last_error AS lastError, d.delivered_at AS deliveredAt
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.webhook_id = ? AND w.account_id = ? ORDER BY d.rowid DESC LIMIT ?`,
    )
    .all(webhookId, accountId, limit) as DeliveryInfo[];
}
