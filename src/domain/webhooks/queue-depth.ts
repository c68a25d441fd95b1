// How many deliveries wait to be sent (due now or retrying later), for the operator's metrics:
// a queue that only grows says endpoints are down or the worker is stuck.
import type { Sqlite } from '../../storage/sqlite.ts';

/** Pending deliveries in app.db, over all webhooks (an index range: webhook_deliveries_due). */
export function webhookQueueDepth(app: Sqlite): number {
  return app.prepare("SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'").pluck().get() as number;
}
