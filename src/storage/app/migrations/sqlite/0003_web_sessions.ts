import { sql, type Kysely } from 'kysely';

// Web app sessions and login throttling.
// sessions.id_hash: SHA-256 hex of the random cookie value, so a copy of app.db cannot be replayed
// as a cookie. flash: a one-time message (e.g. a new token) sealed with a key only the cookie holds.
const statements = [
  sql`CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY CHECK (length(id_hash) = 64),
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_secret TEXT NOT NULL,
    flash TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX sessions_user ON sessions (user_id)`,
  sql`CREATE INDEX sessions_expires ON sessions (expires_at)`,

  // One row per failed login, counted twice: by e-mail and by client address.
  sql`CREATE TABLE login_attempts (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    ip TEXT NOT NULL,
    attempted_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX login_attempts_email ON login_attempts (email, attempted_at)`,
  sql`CREATE INDEX login_attempts_ip ON login_attempts (ip, attempted_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS login_attempts`.execute(db);
  await sql`DROP TABLE IF EXISTS sessions`.execute(db);
}
