// How many deliveries wait to be sent (due now or retrying later), for the operator's metrics:
// a queue that only grows says endpoints are down or the worker is stuck.
import type { AppStore } from '../../storage/app/store.ts';

/** Pending deliveries, over all webhooks (an index range: webhook_deliveries_due). */
export async function webhookQueueDepth(store: AppStore): Promise<number> {
  const { n } = await store.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(n);
}
