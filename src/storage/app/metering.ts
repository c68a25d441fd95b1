// What the API's metering (src/domain/metering/meter.ts) asks of the app state, on either backend:
// read token and account records with the epochs they were read under, count one batch of calls
// under an epoch, and read the extra contacts the lookups show. app.db answers in
// metering-sqlite.ts, the fleet's PostgreSQL in metering-postgres.ts; the rules (who may call, how
// the quota is kept) are the domain's, once.

/** The two change counters, read in the same statement as what they guard. */
export interface Epochs {
  /** Bumped by every change to a token, an account or a plan. */
  readonly auth: number;
  /** Bumped by every change to the extra contacts. */
  readonly contacts: number;
}

/** Everything the token check reads, for one token. */
export interface TokenRecord {
  token_id: number;
  token_hash: string;
  account_id: number;
  enabled: number;
  expires_at: string | null;
  invalidated_at: string | null;
  account_name: string;
  status: string;
  plan: string;
  monthly_quota: number;
  api_included: number;
}

/** What the account check reads (the web app's calls, which have no token). */
export interface AccountRecord {
  account_id: number;
  account_name: string;
  status: string;
  plan: string;
  monthly_quota: number;
  api_included: number;
}

/** One token read by its hash: the epochs, its record (none: no such token), its account's calls in a month. */
export interface TokenRead {
  epochs: Epochs;
  record: TokenRecord | undefined;
  /** The account's calls in the month asked for (0 when no month was asked or none were counted). */
  monthCalls: number;
}

/** One account read by id (the web app's calls): the epochs, its record (none: no such account), its calls in a month. */
export interface AccountRead {
  epochs: Epochs;
  record: AccountRecord | undefined;
  monthCalls: number;
}

/**
 * One batch of calls to count, each entry i one call (or `calls[i]` at once, all or nothing),
 * counted in order. The account id, the token id (0: the web app's call, which has no token) and
 * the plan's limit come from the decision made under `epoch`.
 */
export interface CountBatch {
  accounts: number[];
  tokens: number[];
  calls: number[];
  limits: number[];
  /** The oldest auth epoch the batch's calls were decided under. */
  epoch: number;
  /** The São Paulo month and day the calls count in. */
  month: string;
  day: string;
  /** Tokens whose last_used_at to stamp with `at`, where a call of theirs counted and the stamp is not after `touchBefore`. */
  touch: number[];
  at: Date;
  touchBefore: Date;
}

/**
 * A batch counted, durably: per call whether it fit under its limit, and the account's calls
 * after it. `fit` is null when the auth epoch was no longer the batch's: nothing was written.
 */
export interface Counted {
  epochs: Epochs;
  fit: { ok: boolean[]; used: number[] } | null;
}

/** One extra contact row: cnpj, tipo_contato, tipo_website, contato. */
export type ContactRow = readonly [string, string, string, string];

export interface MeteringStore {
  /** The token with this hash, with the epochs; with `month`, its account's calls in that month. */
  tokenByHash(hash: string, month?: string): Promise<TokenRead>;
  /** The records of these tokens (those that still exist), with the epochs. */
  tokensById(ids: readonly number[]): Promise<{ epochs: Epochs; records: TokenRecord[] }>;
  /** The records of these accounts (those that still exist), with the epochs. */
  accounts(ids: readonly number[]): Promise<{ epochs: Epochs; records: AccountRecord[] }>;
  /** The account with this id and its calls in `month`, with the epochs: an account's call decided before any work. */
  accountWithUsage(id: number, month: string): Promise<AccountRead>;
  /** Counts a batch if the auth epoch is still its own, durably before it resolves. */
  count(batch: CountBatch): Promise<Counted>;
  /**
   * Whether a batch whose count failed with `err` is tried again a moment later, `since` being the
   * time of its first such failure (app.db: another process holds the write lock).
   */
  retry?(err: unknown, since: number): boolean;
}

export interface ContactsStore {
  /** The contacts epoch and every row in file order, read together; rows null when there are more than `max`. */
  snapshot(max: number): Promise<{ epoch: number; rows: ContactRow[] | null }>;
  /**
   * One CNPJ's rows, read now: for a copy too large to hold (app.db, a local read). Absent where a
   * lookup cannot wait on a read (PostgreSQL): the copy is then held whatever its size.
   */
  lookup?(cnpj: string): ContactRow[];
}
