import { sql, type Kysely } from 'kysely';

// PostgreSQL only: one row per node serving from this database, refreshed by its heartbeat
// (src/server/heartbeat.ts), read by `cnpj-api status --database-url` (docs/fleet.md, "Seeing the
// fleet"). Not app state: `app-state copy` leaves it out, and app.db has no counterpart.
// Times are timestamptz written with the database's clock (now()), unlike the ISO text of the app
// tables: "seen in the last 2 minutes" must not depend on how far each node's clock drifted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE fleet_nodes (
    id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    data_dir TEXT NOT NULL,
    listen_url TEXT NOT NULL,
    month TEXT CHECK (month IS NULL OR month ~ '^[0-9]{4}-[0-1][0-9]$'),
    version TEXT NOT NULL,
    started_at TIMESTAMPTZ NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL,
    stopped_at TIMESTAMPTZ
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS fleet_nodes`.execute(db);
}
