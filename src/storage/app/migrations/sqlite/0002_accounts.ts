import { sql, type Kysely } from 'kysely';

// Accounts domain: plans, accounts, users, API tokens, usage counters and extra contacts.
// STRICT tables and CHECK constraints so a bug elsewhere cannot store a value the hot path
// would misread (e.g. enabled = 'yes', a month without its zero).
const statements = [
  sql`CREATE TABLE plans (
    name TEXT PRIMARY KEY COLLATE NOCASE CHECK (length(trim(name)) BETWEEN 1 AND 60),
    monthly_quota INTEGER NOT NULL CHECK (monthly_quota >= 0),
    api_included INTEGER NOT NULL DEFAULT 1 CHECK (api_included IN (0, 1)),
    sort_order INTEGER NOT NULL DEFAULT 0
  ) STRICT`,
  sql`INSERT INTO plans (name, monthly_quota, api_included, sort_order) VALUES
    ('Bronze', 5000, 1, 10), ('Prata', 12500, 1, 20), ('Ouro', 50000, 1, 30),
    ('Diamante', 200000, 1, 40), ('Black', 500000, 1, 50)`,

  sql`CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) BETWEEN 1 AND 120),
    plan TEXT NOT NULL REFERENCES plans (name) ON UPDATE CASCADE,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
    created_at TEXT NOT NULL,
    suspended_at TEXT,
    CHECK ((status = 'suspended') = (suspended_at IS NOT NULL))
  ) STRICT`,

  sql`CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    email TEXT NOT NULL UNIQUE CHECK (email = lower(email) AND email LIKE '_%@_%'),
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('billing_admin', 'member')),
    created_at TEXT NOT NULL
  ) STRICT`,
  sql`CREATE INDEX users_account ON users (account_id)`,

  // expires_at: last valid day (America/Sao_Paulo), NULL = permanent.
  // invalidated_at: set when the account is suspended; never cleared (docs/quotas-and-tokens.md).
  sql`CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 100),
    token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    display_prefix TEXT NOT NULL,
    expires_at TEXT CHECK (expires_at IS NULL OR expires_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    invalidated_at TEXT,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    last_used_at TEXT
  ) STRICT`,
  sql`CREATE INDEX api_tokens_account ON api_tokens (account_id)`,

  // WITHOUT ROWID: the counters are looked up and bumped by their primary key only.
  sql`CREATE TABLE usage_monthly (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    month TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
    calls INTEGER NOT NULL DEFAULT 0 CHECK (calls >= 0),
    PRIMARY KEY (account_id, month)
  ) STRICT, WITHOUT ROWID`,
  sql`CREATE TABLE usage_daily (
    token_id INTEGER NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
    day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    calls INTEGER NOT NULL DEFAULT 0 CHECK (calls >= 0),
    PRIMARY KEY (token_id, day)
  ) STRICT, WITHOUT ROWID`,

  // Operator-managed, survives monthly registry imports; id keeps the CSV order.
  sql`CREATE TABLE extra_contacts (
    id INTEGER PRIMARY KEY,
    cnpj TEXT NOT NULL CHECK (length(cnpj) = 14),
    tipo_contato TEXT NOT NULL CHECK (tipo_contato <> ''),
    tipo_website TEXT NOT NULL DEFAULT '',
    contato TEXT NOT NULL CHECK (contato <> '')
  ) STRICT`,
  sql`CREATE INDEX extra_contacts_cnpj ON extra_contacts (cnpj)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const s of statements) await s.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['extra_contacts', 'usage_daily', 'usage_monthly', 'api_tokens', 'users', 'accounts', 'plans']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(t)}`.execute(db);
  }
}
