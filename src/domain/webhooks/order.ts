// The order deliveries were queued in: a webhook's deliveries go out in that order (attempts.ts)
// and the web app lists them newest first. app.db has it for free in the table's rowid;
// PostgreSQL has no rowid, so its webhook_deliveries has an identity column `seq` (migration
// 0004_webhook_claims). Random UUIDs and equal created_at values (a month's batches) cannot order.
import { sql, type RawBuilder } from 'kysely';
import type { AppStore } from '../../storage/app/store.ts';

/** `d.rowid` or `d.seq`, on webhook_deliveries aliased as `d`. */
export function queueOrder(app: AppStore): RawBuilder<number> {
  return app.backend === 'sqlite' ? sql<number>`d.rowid` : sql<number>`d.seq`;
}
