// The delivery worker's reads and writes on webhook_deliveries: claiming the deliveries that are
// due, and the outcome of each attempt, written after the attempt (at-least-once: a crash before
// the write means the same id and body are sent again).
//
// Claims (fleet mode, docs/webhooks.md): every node runs a worker, and each delivery must be
// attempted by one of them at a time. A worker claims a due delivery in one transaction: the row
// is locked (PostgreSQL: FOR UPDATE SKIP LOCKED, so two workers never wait on or take the same
// row; SQLite: BEGIN IMMEDIATE already excludes every other writer) and gets the worker's id and a
// lease end. Until the lease ends, no other worker takes it; a worker killed mid-attempt leaves a
// lease that ends, and another worker resumes the delivery. The lease outlasts the longest attempt
// (LEASE_MS, send.ts), so a live worker never loses a claim it is still using.
import { writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { lockingRows } from '../../storage/app/dialect.ts';
import { nextAttemptAfterFailure } from './backoff.ts';

export interface DueDelivery {
  id: string;
  webhookId: number;
  body: string;
  url: string;
  secret: string;
}

/** Each enabled webhook's oldest pending delivery, when it is due and not claimed, soonest first. */
function dueHeads(store: AppStore, at: string, limit: number) {
  return (
    store.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.webhook_id as webhookId', 'd.body', 'w.url', 'w.secret'])
      .where((eb) =>
        eb(
          'd.seq',
          'in',
          eb
            .selectFrom('webhook_deliveries as h')
            .select((e) => e.fn.min('h.seq').as('head'))
            .where('h.status', '=', 'pending')
            .groupBy('h.webhook_id'),
        ),
      )
      // Checked again on the row itself: on PostgreSQL a row another worker changed meanwhile is
      // re-read (READ COMMITTED) and must still be pending and unclaimed.
      .where('d.status', '=', 'pending')
      .where('w.enabled', '=', 1)
      .where('d.next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('d.claimed_until', 'is', null), eb('d.claimed_until', '<=', at)]))
      .orderBy('d.next_attempt_at')
      .limit(limit)
  );
}

/**
 * Claims, for `claimant`, each enabled webhook's oldest pending delivery that is due and not
 * claimed by another live worker, soonest first, up to `limit`. Only the oldest: a webhook's
 * deliveries go one at a time in the order they were queued, so a later batch never overtakes one
 * still being retried, and a webhook whose oldest delivery is in flight elsewhere gets nothing.
 */
export async function claimDueDeliveries(
  store: AppStore,
  now: Date,
  skipWebhooks: ReadonlySet<number>,
  limit: number,
  claimant: string,
  leaseMs: number,
): Promise<DueDelivery[]> {
  if (limit <= 0) return [];
  const at = now.toISOString();
  // Most polls find nothing due: a plain read answers them, without a write transaction (on
  // app.db that would take the file's write lock every 2 s from the API's own writes).
  if ((await dueHeads(store, at, 1).execute()).length === 0) return [];
  return writeTransaction(store, async (tx) => {
    const rows = await dueHeads(tx, at, limit + skipWebhooks.size)
      .$call(lockingRows(tx, { of: 'd', skipLocked: true }))
      .execute();
    const due = rows.filter((r) => !skipWebhooks.has(r.webhookId)).slice(0, limit);
    if (due.length > 0) {
      await tx.db
        .updateTable('webhook_deliveries')
        .set({ claimed_by: claimant, claimed_until: new Date(now.getTime() + leaseMs).toISOString() })
        .where(
          'id',
          'in',
          due.map((d) => d.id),
        )
        .execute();
    }
    return due;
  });
}

/**
 * Gives up `claimant`'s claims (a worker stopping: what it had in flight is sent again at once by
 * whichever worker looks next), or with no claimant every claim: app.db's one delivering process
 * at its start, when any claim left is a dead process's.
 */
export async function releaseClaims(store: AppStore, claimant?: string): Promise<number> {
  const r = await store.db
    .updateTable('webhook_deliveries')
    .set({ claimed_by: null, claimed_until: null })
    .where('claimed_by', 'is not', null)
    .$if(claimant !== undefined, (q) => q.where('claimed_by', '=', claimant!))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export interface AttemptOutcome {
  /** The receiver answered 2xx. */
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * Records one attempt: delivered, or the next attempt's time, or failed once the window closed;
 * the claim ends with it. A failure seen by a worker whose claim was taken over (its lease ended)
 * is not recorded: the delivery is the new holder's. A success always is.
 */
export async function recordAttempt(
  store: AppStore,
  id: string,
  outcome: AttemptOutcome,
  now: Date,
  claimant?: string,
  random?: number,
): Promise<void> {
  const at = now.toISOString();
  await writeTransaction(store, async (tx) => {
    const row = await tx.db
      .selectFrom('webhook_deliveries')
      .select(['attempts', 'retry_until', 'claimed_by'])
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .$call(lockingRows(tx))
      .executeTakeFirst();
    if (!row) return; // deleted or finished meanwhile
    if (!outcome.ok && claimant !== undefined && row.claimed_by !== claimant) return;
    const attempts = row.attempts + 1;
    if (outcome.ok) {
      await tx.db
        .updateTable('webhook_deliveries')
        .set({
          status: 'delivered',
          attempts,
          last_attempt_at: at,
          last_status_code: outcome.statusCode,
          last_error: null,
          delivered_at: at,
          claimed_by: null,
          claimed_until: null,
        })
        .where('id', '=', id)
        .execute();
      return;
    }
    const next = nextAttemptAfterFailure(attempts, now, new Date(row.retry_until), random);
    await tx.db
      .updateTable('webhook_deliveries')
      .set({
        status: next ? 'pending' : 'failed',
        attempts,
        last_attempt_at: at,
        last_status_code: outcome.statusCode,
        last_error: outcome.error,
        next_attempt_at: next ? next.toISOString() : at,
        claimed_by: null,
        claimed_until: null,
      })
      .where('id', '=', id)
      .execute();
  });
}

/** Delivered and failed deliveries are kept this long (the web app's history), then deleted. */
export const KEEP_FINISHED_MS = 90 * 24 * 3600_000;

/**
 * Deletes finished deliveries older than KEEP_FINISHED_MS: bodies are up to a few hundred KB and
 * would otherwise pile up month after month. webhook_months keeps its rows, so a month is never
 * queued again. Returns the rows deleted.
 */
export async function pruneFinished(store: AppStore, now: Date): Promise<number> {
  const before = new Date(now.getTime() - KEEP_FINISHED_MS).toISOString();
  const r = await store.db
    .deleteFrom('webhook_deliveries')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
