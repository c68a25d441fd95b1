import { sql, type Kysely } from 'kysely';

// `seq`, the order deliveries were queued in (a webhook's deliveries go out in it; the web app lists
// them newest first), as PostgreSQL's webhook_deliveries has it (its 0004_webhook_claims): one
// column on both backends, so no query names the rowid. Existing rows take their rowid, which was
// that order; a new row takes one more than the largest, so rows copied in from PostgreSQL
// (`app-state copy`, with their seq) keep their place before the ones queued after.
const statements = [
  sql`ALTER TABLE webhook_deliveries ADD COLUMN seq INTEGER`,
  sql`UPDATE webhook_deliveries SET seq = rowid`,
  sql`CREATE UNIQUE INDEX webhook_deliveries_seq ON webhook_deliveries (seq)`,
  sql`CREATE TRIGGER webhook_deliveries_seq AFTER INSERT ON webhook_deliveries WHEN NEW.seq IS NULL
    BEGIN
      UPDATE webhook_deliveries SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM webhook_deliveries)
        WHERE rowid = NEW.rowid;
    END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER webhook_deliveries_seq`.execute(db);
  await sql`DROP INDEX webhook_deliveries_seq`.execute(db);
  await sql`ALTER TABLE webhook_deliveries DROP COLUMN seq`.execute(db);
}
