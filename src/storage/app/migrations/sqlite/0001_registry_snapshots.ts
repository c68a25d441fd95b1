import { sql, type Kysely } from 'kysely';

// The pointer to the active registry snapshot, plus the import history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('registry_snapshots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('dir', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'retired', 'deleted')`))
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addColumn('stats_json', 'text', (c) => c.notNull())
    .execute();
  // At most one active snapshot, enforced by the database.
  await sql`CREATE UNIQUE INDEX registry_snapshots_one_active ON registry_snapshots (status) WHERE status = 'active'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('registry_snapshots').execute();
}
