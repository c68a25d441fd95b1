import { sql, type Kysely } from 'kysely';

// Watchlists and webhooks (#15, docs/webhooks.md): which CNPJs an account watches, where it wants
// their monthly changes POSTed, and the durable delivery queue. The queue lives in app.db so that
// a restart or a crash loses no delivery: a row is written before any attempt and only ever moves
// forward (pending → delivered | failed).
const statements = [
  // Per plan: how many CNPJs an account may watch (`plans set --watchlist-limit`).
  sql`ALTER TABLE plans ADD COLUMN watchlist_limit INTEGER NOT NULL DEFAULT 1000 CHECK (watchlist_limit >= 0)`,
  sql`UPDATE plans SET watchlist_limit = CASE name
        WHEN 'Bronze' THEN 100 WHEN 'Prata' THEN 500 WHEN 'Ouro' THEN 2000
        WHEN 'Diamante' THEN 10000 WHEN 'Black' THEN 50000 ELSE watchlist_limit END`,

  // Keyed by account then CNPJ: a page of the watchlist and "is it watched" are both key reads.
  sql`CREATE TABLE watchlist (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    cnpj TEXT NOT NULL CHECK (length(cnpj) = 14),
    added_at TEXT NOT NULL,
    PRIMARY KEY (account_id, cnpj)
  ) STRICT, WITHOUT ROWID`,

  // secret: kept as is, the server needs it to sign every delivery; shown to the user once.
  sql`CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url TEXT NOT NULL CHECK (url LIKE 'http%://%'),
    secret TEXT NOT NULL CHECK (length(secret) >= 32),
    enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX webhooks_account ON webhooks (account_id)`,

  // One row per POST to send. id is the delivery id (the receiver's idempotency key); body is the
  // exact JSON sent on every attempt. next_attempt_at: ISO UTC, when the worker may try again;
  // retry_until: after a failed attempt past it the delivery is failed (24 h after it was queued,
  // or after a redelivery from the web app, which gives it a fresh window).
  sql`CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event TEXT NOT NULL CHECK (event IN ('changes', 'test')),
    month TEXT CHECK (month IS NULL OR month GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
    body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    retry_until TEXT NOT NULL,
    last_attempt_at TEXT,
    last_status_code INTEGER,
    last_error TEXT,
    delivered_at TEXT
  ) STRICT`,
  sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)`,
  sql`CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at DESC)`,

  // Which month's changes were already queued for a webhook: queuing a month and marking it here
  // happen in one transaction, so a month is queued once, whatever restarts in between.
  sql`CREATE TABLE webhook_months (
    webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    month TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
    queued_at TEXT NOT NULL,
    changes INTEGER NOT NULL CHECK (changes >= 0),
    PRIMARY KEY (webhook_id, month)
  ) STRICT, WITHOUT ROWID`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['webhook_months', 'webhook_deliveries', 'webhooks', 'watchlist'])
    await sql`DROP TABLE IF EXISTS ${sql.table(t)}`.execute(db);
  await sql`ALTER TABLE plans DROP COLUMN watchlist_limit`.execute(db);
}
