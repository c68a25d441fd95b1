import { sql, type Kysely } from 'kysely';

// Delivery claims (docs/webhooks.md, fleet mode): the worker that is about to attempt a delivery
// writes its id and a lease end on the row, in the transaction that picked it; another worker
// leaves a row alone until the lease ends (its holder died mid-attempt) and then takes it over.
// On app.db one process delivers, but the same statements run on both backends.
const statements = [
  sql`ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT`,
  // ISO UTC, compared as text like next_attempt_at; NULL: not claimed.
  sql`ALTER TABLE webhook_deliveries ADD COLUMN claimed_until TEXT`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN claimed_until`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN claimed_by`.execute(db);
}
