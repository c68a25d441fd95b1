import { sql, type Kysely } from 'kysely';

// The fleet's release (docs/fleet.md, "The month's import: one machine, every node follows"):
// fleet_releases lists every release published to this fleet; fleet_target (one row) names the
// one every node must serve, and `switch_at` the database time at which they switch to it
// together, set once by the first node that sees every follower staged (or the wait expired).
// `generation` grows with each new target, so a rollback to a release served before is a new
// switch. fleet_nodes gains what each node serves and has staged, from its follower.
// Times are the database's clock, like fleet_nodes': nodes' clocks may drift.
const statements = [
  sql`CREATE TABLE fleet_releases (
    release TEXT PRIMARY KEY,
    month TEXT NOT NULL CHECK (month ~ '^[0-9]{4}-[0-1][0-9]$'),
    manifest_sha256 TEXT NOT NULL,
    published_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    published_by TEXT NOT NULL
  )`,
  sql`CREATE TABLE fleet_target (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    release TEXT NOT NULL REFERENCES fleet_releases (release),
    generation BIGINT NOT NULL,
    set_at TIMESTAMPTZ NOT NULL,
    set_by TEXT NOT NULL,
    switch_after_seconds INTEGER NOT NULL CHECK (switch_after_seconds >= 0),
    switch_at TIMESTAMPTZ
  )`,
  sql`ALTER TABLE fleet_nodes ADD COLUMN release TEXT`,
  sql`ALTER TABLE fleet_nodes ADD COLUMN staged_release TEXT`,
  sql`ALTER TABLE fleet_nodes ADD COLUMN follow_seen_at TIMESTAMPTZ`,
  sql`ALTER TABLE fleet_nodes ADD COLUMN follow_error TEXT`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE fleet_nodes DROP COLUMN follow_error, DROP COLUMN follow_seen_at, DROP COLUMN staged_release, DROP COLUMN release`.execute(
    db,
  );
  await sql`DROP TABLE IF EXISTS fleet_target`.execute(db);
  await sql`DROP TABLE IF EXISTS fleet_releases`.execute(db);
}
