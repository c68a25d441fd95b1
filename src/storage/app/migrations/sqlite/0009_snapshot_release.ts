import { sql, type Kysely } from 'kysely';

// The release a snapshot came from or was published as (docs/releases.md): answers carry it in
// X-Registry-Release. NULL: imported here and never published.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE registry_snapshots ADD COLUMN release_id TEXT`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE registry_snapshots DROP COLUMN release_id`.execute(db);
}
