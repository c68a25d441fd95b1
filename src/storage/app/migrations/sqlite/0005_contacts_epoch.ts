import { sql, type Kysely } from 'kysely';

// The API keeps the extra contacts in memory as well, reloaded when this counter moves; a
// counter of their own, so that token changes (frequent) do not reload them (slow when many).
const TRIGGERS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE contacts_epoch (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL) STRICT`.execute(db);
  await sql`INSERT INTO contacts_epoch (id, n) VALUES (1, 0)`.execute(db);
  for (const op of TRIGGERS) {
    await sql
      .raw(
        `CREATE TRIGGER extra_contacts_epoch_${op} AFTER ${op.toUpperCase()} ON extra_contacts BEGIN UPDATE contacts_epoch SET n = n + 1 WHERE id = 1; END`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS extra_contacts_epoch_${op}`).execute(db);
  await sql`DROP TABLE IF EXISTS contacts_epoch`.execute(db);
}
