import { sql, type Kysely } from 'kysely';

// Delivery claims for a fleet of workers (SQLite's 0008_webhook_claims): claimed_by and
// claimed_until (the lease, ISO UTC text like the other times). And `seq`, the order deliveries
// were queued in, which app.db has as the rowid: a webhook's deliveries go out in that order.
const statements = [
  sql`ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT`,
  sql`ALTER TABLE webhook_deliveries ADD COLUMN claimed_until TEXT`,
  sql`ALTER TABLE webhook_deliveries ADD COLUMN seq BIGINT GENERATED ALWAYS AS IDENTITY`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN seq, DROP COLUMN claimed_until, DROP COLUMN claimed_by`.execute(
    db,
  );
}
