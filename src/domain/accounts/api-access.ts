// The API's hot path: is this token allowed, and count one call against the monthly quota.
// Prepared better-sqlite3 statements (no query builder) because this runs on every request.
// A malformed token is refused on its shape and checksum alone, without a database read.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../storage/sqlite.ts';
import type { WalSync } from '../../storage/wal-sync.ts';
import { nextMonthStartEpoch, spDay, spMonth, systemClock, type Clock } from './time.ts';
import { hashToken, isWellFormedToken } from './token-format.ts';

export type AccessError =
  | 'missing_token'
  | 'invalid_token'
  | 'token_deactivated'
  | 'token_expired'
  | 'account_suspended'
  | 'plan_without_api'
  | 'quota_exceeded';

export interface QuotaState {
  limit: number;
  remaining: number;
  /** Epoch seconds of the next month start in America/Sao_Paulo. */
  reset: number;
}

/** A token that may call the API: who it is and the plan's monthly limit (usage not read yet). */
export interface AccessIdentity {
  ok: true;
  accountId: number;
  accountName: string;
  tokenId: number;
  /** The plan's calls per month. */
  limit: number;
}

export interface AccessGranted extends AccessIdentity {
  quota: QuotaState;
}

export interface AccessDenied {
  ok: false;
  error: AccessError;
  status: 401 | 403 | 429;
  /** Portuguese sentence for a person. */
  message: string;
  /** Present once the token is known (quota_exceeded always). */
  quota?: QuotaState;
  /** Seconds until the quota resets (quota_exceeded only). */
  retryAfter?: number;
}

export type AccessResult = AccessGranted | AccessDenied;

const STATUS: Record<AccessError, 401 | 403 | 429> = {
  missing_token: 401,
  invalid_token: 401,
  token_deactivated: 401,
  token_expired: 401,
  account_suspended: 403,
  plan_without_api: 403,
  quota_exceeded: 429,
};

function deny(error: AccessError, message: string, quota?: QuotaState, retryAfter?: number): AccessDenied {
  const d: AccessDenied = { ok: false, error, status: STATUS[error], message };
  if (quota) d.quota = quota;
  if (retryAfter !== undefined) d.retryAfter = retryAfter;
  return d;
}

const brDate = (ymd: string) => `${ymd.slice(8, 10)}/${ymd.slice(5, 7)}/${ymd.slice(0, 4)}`;

const MSG_MISSING = 'Informe o token da API no cabeçalho "Authorization: Bearer <token>" ou no parâmetro api_token.';
const MSG_INVALID = 'O token da API informado é inválido.';
const MSG_DEACTIVATED = 'Este token da API está desativado. Reative-o em "Gerenciar Tokens da API" ou use outro token.';
const MSG_SUSPENDED = 'A conta está suspensa e seus tokens da API foram invalidados. Regularize a conta e crie um novo token.';

/** Everything the token check reads, for one token hash. */
interface TokenRecord {
  token_id: number;
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

/** One call through the counting transaction: who (re-checked) and the new monthly count. */
interface Counted {
  id: AccessIdentity | AccessDenied;
  /** Undefined: the quota was used up (or the call was denied). */
  calls?: number;
}

/** The trimmed token, or the denial for a missing or malformed one (no database read). */
function tokenText(token: string | undefined | null): string | AccessDenied {
  if (token === undefined || token === null) return deny('missing_token', MSG_MISSING);
  const t = String(token).trim();
  if (t === '') return deny('missing_token', MSG_MISSING);
  return isWellFormedToken(t) ? t : deny('invalid_token', MSG_INVALID);
}

/** last_used_at is written at most this often per token (docs/quotas-and-tokens.md). */
const TOUCH_INTERVAL_MS = 60_000;
/** How long a batch keeps retrying for the write lock before its calls fail (500). */
const LOCK_WAIT_MS = 10_000;
/** Token records kept in memory; the map is emptied when full (a bound, not an LRU). */
const TOKEN_CACHE_MAX = 10_000;

export interface ApiAccessOptions {
  now?: Clock;
  /**
   * Group commit without blocking: consumeGrouped() counts on `sqlite` with synchronous=NORMAL
   * and waits for this WAL flush before answering (see WalSync). Without it, each group commit
   * is a synchronous=FULL COMMIT on the calling thread.
   */
  walSync?: WalSync;
}

export class ApiAccess {
  private readonly now: Clock;
  private readonly walSync: WalSync | undefined;
  private readonly tokenByHash: Statement<[string], TokenRecord>;
  private readonly tokenById: Statement<[number], TokenRecord>;
  private readonly epochs: Statement<[], { auth: number; contacts: number }>;
  private readonly monthlyCalls: Statement<[number, string], number>;
  /** Token records by hash, valid while auth_epoch keeps the value they were read under. */
  private readonly tokens = new Map<string, TokenRecord>();
  private tokensEpoch = -1;
  private lastContactsEpoch = -1;
  private readonly bumpMonthly: Statement<[number, string, number], { calls: number }>;
  private readonly bumpDaily: Statement<[number, string, number]>;
  private readonly touch: Statement<[string, number, string]>;
  private readonly lastTouch = new Map<number, number>();
  private readonly countTx: (ids: AccessIdentity[], month: string, day: string, at: Date) => Counted[];
  private pending: { id: AccessIdentity; resolve: (r: AccessResult) => void; reject: (e: unknown) => void; since: number }[] = [];
  private flushScheduled = false;
  /** busy_timeout off / back on around the batch transaction (walSync mode only). */
  private readonly noWait: (() => void) | undefined;
  private readonly wait: (() => void) | undefined;

  constructor(sqlite: Sqlite, opts: ApiAccessOptions = {}) {
    this.now = opts.now ?? systemClock;
    this.walSync = opts.walSync;
    if (opts.walSync) {
      const timeout = Number(sqlite.pragma('busy_timeout', { simple: true }));
      // A PRAGMA acts when prepared, not when run: a prepared one cannot be reused.
      this.noWait = () => sqlite.pragma('busy_timeout = 0');
      this.wait = () => sqlite.pragma(`busy_timeout = ${Number.isInteger(timeout) ? timeout : 10_000}`);
    }
    const tokenSql = (where: string) =>
      `SELECT t.id AS token_id, t.account_id, t.enabled, t.expires_at, t.invalidated_at,
              a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included
       FROM api_tokens t
       JOIN accounts a ON a.id = t.account_id
       JOIN plans p ON p.name = a.plan
       WHERE ${where}`;
    this.tokenByHash = sqlite.prepare(tokenSql('t.token_hash = ?'));
    this.tokenById = sqlite.prepare(tokenSql('t.id = ?'));
    this.epochs = sqlite.prepare('SELECT (SELECT n FROM auth_epoch WHERE id = 1) AS auth, (SELECT n FROM contacts_epoch WHERE id = 1) AS contacts');
    this.monthlyCalls = sqlite.prepare<[number, string], number>('SELECT calls FROM usage_monthly WHERE account_id = ? AND month = ?').pluck();
    // Check and increment in ONE statement: under SQLite's write lock no two processes can both
    // see calls = limit - 1 and both pass. No row returned = the quota is used up.
    this.bumpMonthly = sqlite.prepare(
      `INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, 1)
       ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + 1 WHERE calls < ?
       RETURNING calls`,
    );
    this.bumpDaily = sqlite.prepare(
      `INSERT INTO usage_daily (token_id, day, calls) VALUES (?, ?, ?)
       ON CONFLICT (token_id, day) DO UPDATE SET calls = calls + excluded.calls`,
    );
    // The WHERE keeps several server processes from each rewriting the same minute.
    this.touch = sqlite.prepare(
      'UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    );
    // One transaction (one WAL commit) for the re-check, the counters, the daily rows and the
    // touch: a crash keeps all or none. IMMEDIATE takes the write lock up front.
    const tx = sqlite.transaction((ids: AccessIdentity[], month: string, day: string, at: Date) => this.countAll(ids, month, day, at));
    this.countTx = (ids, month, day, at) => tx.immediate(ids, month, day, at);
  }

  /**
   * Checks a token without reading usage: format and checksum first (no DB), then the token's
   * record (cached, see auth_epoch; the epoch is read now), its state, the account's state and
   * the plan.
   */
  identify(token: string | undefined | null): AccessIdentity | AccessDenied {
    const t = tokenText(token);
    return typeof t === 'string' ? this.identifyHash(hashToken(t)) : t;
  }

  /**
   * The hot path's identify(): a token already in memory is granted without reading auth_epoch,
   * because counting the call (consumeGrouped/consume) re-reads it inside the counting
   * transaction and re-checks the token if anything changed. Denials, and tokens not in memory,
   * go through identify() and so are always decided on fresh data.
   */
  identifyForCount(token: string | undefined | null): AccessIdentity | AccessDenied {
    const t = tokenText(token);
    if (typeof t !== 'string') return t;
    const hash = hashToken(t);
    const r = this.tokens.get(hash);
    if (r !== undefined) {
      const d = this.decide(r, this.now());
      if (d.ok) return d;
    }
    return this.identifyHash(hash);
  }

  /** identify() once the token is known to be well formed: epoch read now, record, decision. */
  private identifyHash(hash: string): AccessIdentity | AccessDenied {
    const r = this.tokenRecord(hash);
    return r ? this.decide(r, this.now()) : deny('invalid_token', MSG_INVALID);
  }

  /**
   * identify() plus this month's usage: the quota state for an answer that does not count a
   * call (400, 503), or quota_exceeded when nothing is left.
   */
  authenticate(token: string | undefined | null): AccessResult {
    const id = this.identify(token);
    return id.ok ? this.withQuota(id) : id;
  }

  /** The usage so far this month for an identified token; quota_exceeded when used up. */
  withQuota(id: AccessIdentity): AccessResult {
    const at = this.now();
    const calls = this.monthlyCalls.get(id.accountId, spMonth(at)) ?? 0;
    const quota: QuotaState = { limit: id.limit, remaining: Math.max(0, id.limit - calls), reset: nextMonthStartEpoch(at) };
    if (quota.remaining === 0) return this.quotaExceeded(quota, at);
    return { ...id, quota };
  }

  /**
   * contacts_epoch as last read, in the same statement as auth_epoch (by identify() or inside a
   * count): the API's contacts copy keys on it without a read of its own.
   */
  get contactsEpoch(): number {
    return this.lastContactsEpoch;
  }

  private decide(r: TokenRecord, at: Date): AccessIdentity | AccessDenied {
    if (r.invalidated_at !== null || r.status !== 'active') return deny('account_suspended', MSG_SUSPENDED);
    if (r.enabled !== 1) return deny('token_deactivated', MSG_DEACTIVATED);
    if (r.expires_at !== null && r.expires_at < spDay(at)) {
      return deny('token_expired', `Este token da API expirou em ${brDate(r.expires_at)}. Crie um novo em "Gerenciar Tokens da API".`);
    }
    if (r.api_included !== 1) return deny('plan_without_api', `O plano ${r.plan} não inclui acesso à API de CNPJ.`);
    return { ok: true, accountId: r.account_id, accountName: r.account_name, tokenId: r.token_id, limit: r.monthly_quota };
  }

  /** Empties the token records when auth_epoch moved; returns true if it did. */
  private syncEpoch(): boolean {
    const { auth, contacts } = this.epochs.get()!;
    this.lastContactsEpoch = contacts;
    if (auth === this.tokensEpoch) return false;
    this.tokens.clear();
    this.tokensEpoch = auth;
    return true;
  }

  /** Token, account and plan for a token hash, from memory while auth_epoch has not moved. */
  private tokenRecord(hash: string): TokenRecord | undefined {
    this.syncEpoch();
    let r = this.tokens.get(hash);
    if (r === undefined) {
      // Unknown hashes are not cached: a flood of made-up tokens cannot grow the map.
      r = this.tokenByHash.get(hash);
      if (r === undefined) return undefined;
      if (this.tokens.size >= TOKEN_CACHE_MAX) this.tokens.clear();
      this.tokens.set(hash, r);
    }
    return r;
  }

  /**
   * Inside the counting transaction: if auth_epoch moved since the calls were identified, each
   * is decided again on the current rows (a token deactivated a moment ago is refused here),
   * then each granted call is its own atomic check-and-increment of the monthly counter.
   */
  private countAll(ids: AccessIdentity[], month: string, day: string, at: Date): Counted[] {
    const recheck = this.syncEpoch();
    const tokenCalls = new Map<number, number>();
    const out = ids.map((given): Counted => {
      let id: AccessIdentity | AccessDenied = given;
      if (recheck) {
        const r = this.tokenById.get(given.tokenId);
        id = r ? this.decide(r, at) : deny('invalid_token', MSG_INVALID);
        if (!id.ok) return { id };
      }
      // limit 0: the INSERT branch would otherwise count a first call.
      const calls = id.limit > 0 ? this.bumpMonthly.get(id.accountId, month, id.limit)?.calls : undefined;
      if (calls !== undefined) tokenCalls.set(id.tokenId, (tokenCalls.get(id.tokenId) ?? 0) + 1);
      return { id, calls };
    });
    for (const [tokenId, n] of tokenCalls) {
      this.bumpDaily.run(tokenId, day, n);
      const ms = at.getTime();
      if (ms - (this.lastTouch.get(tokenId) ?? 0) >= TOUCH_INTERVAL_MS) {
        this.touch.run(at.toISOString(), tokenId, new Date(ms - TOUCH_INTERVAL_MS).toISOString());
        this.lastTouch.set(tokenId, ms);
      }
    }
    return out;
  }

  /**
   * Counts one call for a granted access, atomically against the quota: of N concurrent calls
   * (any number of processes on the same app.db) at most `limit` are granted per month.
   * Returns the updated quota, or quota_exceeded when the last call was taken meanwhile, or
   * the token's denial when it changed since it was identified.
   */
  consume(id: AccessIdentity): AccessResult {
    const at = this.now();
    return this.counted(this.countTx([id], spMonth(at), spDay(at), at)[0], at);
  }

  /**
   * Same as consume(), but the calls arriving in the same event-loop turn share one transaction
   * (group commit): one fsync for the batch instead of one per call, which is what bounds
   * throughput with synchronous=FULL. Each call is still its own atomic check-and-increment, and
   * the promise settles only once the COMMIT is durable (after COMMIT, or after the WAL flush
   * with the walSync option), so an answered call is never lost in a crash.
   */
  consumeGrouped(id: AccessIdentity): Promise<AccessResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, resolve, reject, since: 0 });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(retry = false): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const run = () => {
      this.flushScheduled = false;
      this.flush();
    };
    // A retry waits a millisecond: a long-held lock (a big CLI import of contacts) must not spin.
    if (retry) setTimeout(run, 1);
    else setImmediate(run);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const at = this.now();
    let results: Counted[];
    try {
      results = this.countBatch(batch.map((b) => b.id), spMonth(at), spDay(at), at);
    } catch (err) {
      if (this.noWait && (err as { code?: string }).code === 'SQLITE_BUSY') {
        // Another process holds the write lock: try again on the next turn instead of letting
        // SQLite's busy handler sleep (it would stop every request of this process meanwhile).
        const first = batch[0].since || Date.now();
        if (Date.now() - first < LOCK_WAIT_MS) {
          for (const b of batch) b.since ||= first;
          this.pending = batch.concat(this.pending);
          this.scheduleFlush(true);
          return;
        }
      }
      for (const b of batch) b.reject(err);
      return;
    }
    const answer = () => batch.forEach((b, i) => b.resolve(this.counted(results[i], at)));
    if (!this.walSync) return answer();
    // Committed, not yet durable: answer once the WAL is on disk.
    this.walSync.sync().then(answer, (err) => {
      for (const b of batch) b.reject(err);
    });
  }

  /** The batch transaction; with walSync, without waiting in SQLite for the write lock. */
  private countBatch(ids: AccessIdentity[], month: string, day: string, at: Date): Counted[] {
    if (!this.noWait) return this.countTx(ids, month, day, at);
    this.noWait();
    try {
      return this.countTx(ids, month, day, at);
    } finally {
      this.wait!();
    }
  }

  private counted({ id, calls }: Counted, at: Date): AccessResult {
    if (!id.ok) return id;
    const reset = nextMonthStartEpoch(at);
    const limit = id.limit;
    if (calls === undefined) return this.quotaExceeded({ limit, remaining: 0, reset }, at);
    return { ok: true, accountId: id.accountId, accountName: id.accountName, tokenId: id.tokenId, limit, quota: { limit, remaining: Math.max(0, limit - calls), reset } };
  }

  private quotaExceeded(quota: QuotaState, at: Date): AccessDenied {
    const retryAfter = Math.max(1, Math.ceil(quota.reset - at.getTime() / 1000));
    const renew = brDate(spDay(new Date(quota.reset * 1000)));
    return deny(
      'quota_exceeded',
      `A cota mensal de ${quota.limit.toLocaleString('pt-BR')} consultas da API foi atingida; ela será renovada em ${renew}.`,
      quota,
      retryAfter,
    );
  }
}
