import { sql, type Kysely } from 'kysely';

// A counter that moves whenever something the token check depends on changes: a token's state,
// an account, a plan. The API keeps the token rows it has checked in memory and drops them when
// the counter moved, so a deactivation (from the web app, the CLI or another server process)
// takes effect on the very next request while the hot path reads one integer instead of a
// three-table join. last_used_at and usage writes do not move it.
const statements = [
  sql`CREATE TABLE auth_epoch (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    n INTEGER NOT NULL
  ) STRICT`,
  sql`INSERT INTO auth_epoch (id, n) VALUES (1, 0)`,
  sql`CREATE TRIGGER api_tokens_auth_update AFTER UPDATE OF token_hash, account_id, expires_at, enabled, invalidated_at ON api_tokens
      BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`,
  sql`CREATE TRIGGER api_tokens_auth_delete AFTER DELETE ON api_tokens
      BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`,
  sql`CREATE TRIGGER accounts_auth_update AFTER UPDATE ON accounts
      BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`,
  sql`CREATE TRIGGER accounts_auth_delete AFTER DELETE ON accounts
      BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`,
  sql`CREATE TRIGGER plans_auth_update AFTER UPDATE ON plans
      BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`,
  sql`CREATE TRIGGER plans_auth_delete AFTER DELETE ON plans
      BEGIN UPDATE auth_epoch SET n = n + 1 WHERE id = 1; END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'api_tokens_auth_update',
    'api_tokens_auth_delete',
    'accounts_auth_update',
    'accounts_auth_delete',
    'plans_auth_update',
    'plans_auth_delete',
  ]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(t)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS auth_epoch`.execute(db);
}
