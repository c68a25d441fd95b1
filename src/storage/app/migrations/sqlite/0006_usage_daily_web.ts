import { sql, type Kysely } from 'kysely';

// The calls of the web app's Consulta page per account and São Paulo day. They have no token, so
// usage_daily (per token, a foreign key to api_tokens) cannot hold them; without a row of their
// own they counted in the month (usage_monthly) but in no day of the usage chart. Calls made
// before this migration stay in their month only: their days are not known.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE usage_daily_web (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    calls INTEGER NOT NULL DEFAULT 0 CHECK (calls >= 0),
    PRIMARY KEY (account_id, day)
  ) STRICT, WITHOUT ROWID`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS usage_daily_web`.execute(db);
}
