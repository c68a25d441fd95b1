import { sql, type Kysely } from 'kysely';

// The API keeps the extra contacts in memory too, so auth_epoch (0004) also moves when they
// change: the counter now means "something the API caches changed".
const TRIGGERS = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const op of TRIGGERS) {
    await sql
      .raw(`CREATE TRIGGER extra_contacts_epoch_${op} AFTER ${op.toUpperCase()} ON extra_contacts BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS extra_contacts_epoch_${op}`).execute(db);
}
