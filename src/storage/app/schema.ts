// Kysely's view of app.db. Each migration that adds a table adds its interface here.
import type { Generated } from 'kysely';

export interface RegistrySnapshotsTable {
  id: string;
  month: string;
  dir: string;
  status: 'active' | 'retired' | 'deleted';
  imported_at: string;
  stats_json: string;
  /** 0009_snapshot_release. */
  release_id: string | null;
}

// 0002_accounts. Booleans are 0/1 integers; timestamps are ISO 8601 UTC text.
export interface PlansTable {
  name: string;
  monthly_quota: number;
  api_included: 0 | 1;
  sort_order: Generated<number>;
  /** 0007: CNPJs an account of this plan may watch. */
  watchlist_limit: Generated<number>;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  plan: string;
  status: Generated<'active' | 'suspended'>;
  created_at: string;
  suspended_at: string | null;
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  /** Lowercased. */
  email: string;
  password_hash: string;
  role: 'billing_admin' | 'member';
  created_at: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** SHA-256 hex of the token string. */
  token_hash: string;
  display_prefix: string;
  /** 'YYYY-MM-DD', last valid day in America/Sao_Paulo; null = permanent. */
  expires_at: string | null;
  enabled: Generated<0 | 1>;
  invalidated_at: string | null;
  created_at: string;
  /** A user id (as text) or 'cli'. */
  created_by: string;
  last_used_at: string | null;
}

export interface UsageMonthlyTable {
  account_id: number;
  /** 'YYYY-MM' in America/Sao_Paulo. */
  month: string;
  calls: Generated<number>;
}

export interface UsageDailyTable {
  token_id: number;
  /** 'YYYY-MM-DD' in America/Sao_Paulo. */
  day: string;
  calls: Generated<number>;
}

/** The web app's Consulta calls (no token) per account and day. */
export interface UsageDailyWebTable {
  account_id: number;
  /** 'YYYY-MM-DD' in America/Sao_Paulo. */
  day: string;
  calls: Generated<number>;
}

export interface ExtraContactsTable {
  id: Generated<number>;
  cnpj: string;
  tipo_contato: string;
  tipo_website: Generated<string>;
  contato: string;
}

// 0003_web_sessions.
/** Moves when a token, account or plan changes (triggers): the API's token cache key. */
export interface AuthEpochTable {
  id: number;
  n: number;
}

/** Moves when extra contacts change (triggers): the API's contacts copy key. */
export interface ContactsEpochTable {
  id: number;
  n: number;
}

export interface SessionsTable {
  /** SHA-256 hex of the cookie value. */
  id_hash: string;
  user_id: number;
  csrf_secret: string;
  /** Sealed one-time message, or null. */
  flash: string | null;
  created_at: string;
  expires_at: string;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  ip: string;
  attempted_at: string;
}

// 0007_watchlists_webhooks.
export interface WatchlistTable {
  account_id: number;
  /** 14 characters. */
  cnpj: string;
  added_at: string;
}

export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  url: string;
  /** The HMAC key; shown to the user once. */
  secret: string;
  enabled: Generated<0 | 1>;
  created_at: string;
  /** A user id (as text) or 'cli'. */
  created_by: string;
}

export interface WebhookDeliveriesTable {
  /** The delivery id sent to the receiver (idempotency key). */
  id: string;
  webhook_id: number;
  event: 'changes' | 'test';
  month: string | null;
  /** The exact JSON body sent on every attempt. */
  body: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  created_at: string;
  next_attempt_at: string;
  /** A failed attempt after this time fails the delivery (24 h after queuing or a redelivery). */
  retry_until: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  /** 0008 (PostgreSQL 0004): the worker attempting it now, and until when (ISO UTC) its lease holds. */
  claimed_by: string | null;
  claimed_until: string | null;
  /**
   * 0010 (PostgreSQL 0004): the order deliveries were queued in; a webhook's go out in it. Given on
   * insert by the database (a trigger on app.db, an identity on PostgreSQL).
   */
  seq: Generated<number>;
}

export interface WebhookMonthsTable {
  webhook_id: number;
  month: string;
  queued_at: string;
  changes: number;
}

export interface AppDatabase {
  registry_snapshots: RegistrySnapshotsTable;
  plans: PlansTable;
  accounts: AccountsTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  usage_monthly: UsageMonthlyTable;
  usage_daily: UsageDailyTable;
  usage_daily_web: UsageDailyWebTable;
  extra_contacts: ExtraContactsTable;
  sessions: SessionsTable;
  auth_epoch: AuthEpochTable;
  contacts_epoch: ContactsEpochTable;
  login_attempts: LoginAttemptsTable;
  watchlist: WatchlistTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_months: WebhookMonthsTable;
}

export type { Generated };
