// The delivery worker's reads and writes on webhook_deliveries: which deliveries are due, and the
// outcome of each attempt, written after the attempt (at-least-once: a crash before the write
// means the same id and body are sent again).
import type { Sqlite } from '../../storage/sqlite.ts';
import { nextAttemptAfterFailure } from './backoff.ts';

export interface DueDelivery {
  id: string;
  webhookId: number;
  body: string;
  url: string;
  secret: string;
}

/**
 * Each enabled webhook's oldest pending delivery, when it is due, soonest first. Only the oldest:
 * a webhook's deliveries go one at a time in the order they were queued, so a later batch never
 * overtakes one still being retried.
 */
export function dueDeliveries(app: Sqlite, now: Date, skipWebhooks: ReadonlySet<number>, limit: number): DueDelivery[] {
  const rows = app
    .prepare(
      `SELECT d.id, d.webhook_id AS webhookId, d.body, w.url, w.secret
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.rowid IN (SELECT min(rowid) FROM webhook_deliveries WHERE status = 'pending' GROUP BY webhook_id)
         AND w.enabled = 1 AND d.next_attempt_at <= ?
       ORDER BY d.next_attempt_at LIMIT ?`,
    )
    .all(now.toISOString(), limit + skipWebhooks.size) as DueDelivery[];
  return rows.filter((r) => !skipWebhooks.has(r.webhookId)).slice(0, limit);
}

export interface AttemptOutcome {
  /** The receiver answered 2xx. */
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** Records one attempt: delivered, or the next attempt's time, or failed once the window closed. */
export function recordAttempt(app: Sqlite, id: string, outcome: AttemptOutcome, now: Date, random?: number): void {
  const at = now.toISOString();
  app
    .transaction(() => {
      const row = app
        .prepare("SELECT attempts, retry_until FROM webhook_deliveries WHERE id = ? AND status = 'pending'")
        .get(id) as { attempts: number; retry_until: string } | undefined;
      if (!row) return; // deleted meanwhile
      const attempts = row.attempts + 1;
      if (outcome.ok) {
        app
          .prepare(
            "UPDATE webhook_deliveries SET status = 'delivered', attempts = ?, last_attempt_at = ?, last_status_code = ?, last_error = NULL, delivered_at = ? WHERE id = ?",
          )
          .run(attempts, at, outcome.statusCode, at, id);
        return;
      }
      const next = nextAttemptAfterFailure(attempts, now, new Date(row.retry_until), random);
      app
        .prepare(
          'UPDATE webhook_deliveries SET status = ?, attempts = ?, last_attempt_at = ?, last_status_code = ?, last_error = ?, next_attempt_at = ? WHERE id = ?',
        )
        .run(
          next ? 'pending' : 'failed',
          attempts,
          at,
          outcome.statusCode,
          outcome.error,
          next ? next.toISOString() : at,
          id,
        );
    })
    .immediate();
}

/** Delivered and failed deliveries are kept this long (the web app's history), then deleted. */
export const KEEP_FINISHED_MS = 90 * 24 * 3600_000;

/**
 * Deletes finished deliveries older than KEEP_FINISHED_MS: bodies are up to a few hundred KB and
 * would otherwise pile up in app.db month after month. webhook_months keeps its rows, so a month
 * is never queued again. Returns the rows deleted.
 */
export function pruneFinished(app: Sqlite, now: Date): number {
  const before = new Date(now.getTime() - KEEP_FINISHED_MS).toISOString();
  return app
    .prepare("DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND created_at < ?")
    .run(before).changes;
}
