import { sql, type Kysely } from 'kysely';

// app.db's 0010_webhook_delivery_seq gives its deliveries the same `seq` as this table's (0004), with
// a unique index: the same index here, where the queue's heads are read by it too.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE UNIQUE INDEX webhook_deliveries_seq ON webhook_deliveries (seq)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX webhook_deliveries_seq`.execute(db);
}
