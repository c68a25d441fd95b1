// The API's hot path: is this token allowed, and count one call against the monthly quota.
// Prepared better-sqlite3 statements (no query builder) because this runs on every request.
// A malformed token is refused on its shape and checksum alone, without a database read.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../db/sqlite.ts';
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

export interface AccessGranted {
  ok: true;
  accountId: number;
  accountName: string;
  tokenId: number;
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

interface LookupRow {
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
  calls: number;
}

/** last_used_at is written at most this often per token (contract 3). */
const TOUCH_INTERVAL_MS = 60_000;

export class ApiAccess {
  private readonly now: Clock;
  private readonly lookup: Statement<[string, string], LookupRow>;
  private readonly bumpMonthly: Statement<[number, string, number], { calls: number }>;
  private readonly bumpDaily: Statement<[number, string]>;
  private readonly touch: Statement<[string, number, string]>;
  private readonly lastTouch = new Map<number, number>();
  private readonly countTx: (g: AccessGranted, month: string, day: string, at: Date) => number | undefined;
  private readonly countBatchTx: (gs: AccessGranted[], month: string, day: string, at: Date) => (number | undefined)[];
  private pending: { g: AccessGranted; resolve: (r: AccessResult) => void; reject: (e: unknown) => void }[] = [];

  constructor(sqlite: Sqlite, opts: { now?: Clock } = {}) {
    this.now = opts.now ?? systemClock;
    this.lookup = sqlite.prepare(
      `SELECT t.id AS token_id, t.account_id, t.enabled, t.expires_at, t.invalidated_at,
              a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included,
              coalesce(u.calls, 0) AS calls
       FROM api_tokens t
       JOIN accounts a ON a.id = t.account_id
       JOIN plans p ON p.name = a.plan
       LEFT JOIN usage_monthly u ON u.account_id = t.account_id AND u.month = ?
       WHERE t.token_hash = ?`,
    );
    // Check and increment in ONE statement: under SQLite's write lock no two processes can both
    // see calls = limit - 1 and both pass. No row returned = the quota is used up.
    this.bumpMonthly = sqlite.prepare(
      `INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, 1)
       ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + 1 WHERE calls < ?
       RETURNING calls`,
    );
    this.bumpDaily = sqlite.prepare(
      `INSERT INTO usage_daily (token_id, day, calls) VALUES (?, ?, 1)
       ON CONFLICT (token_id, day) DO UPDATE SET calls = calls + 1`,
    );
    // The WHERE keeps several server processes from each rewriting the same minute.
    this.touch = sqlite.prepare(
      'UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    );
    const countOne = (g: AccessGranted, month: string, day: string, at: Date): number | undefined => {
      if (g.quota.limit <= 0) return undefined; // the INSERT branch would otherwise count a first call
      const row = this.bumpMonthly.get(g.accountId, month, g.quota.limit);
      if (!row) return undefined;
      this.bumpDaily.run(g.tokenId, day);
      const ms = at.getTime();
      if (ms - (this.lastTouch.get(g.tokenId) ?? 0) >= TOUCH_INTERVAL_MS) {
        this.touch.run(at.toISOString(), g.tokenId, new Date(ms - TOUCH_INTERVAL_MS).toISOString());
        this.lastTouch.set(g.tokenId, ms);
      }
      return row.calls;
    };
    // One transaction (one WAL commit, one fsync) for the counter, the daily row and the touch:
    // a crash keeps all or none. IMMEDIATE takes the write lock up front so busy_timeout applies.
    const tx = sqlite.transaction(countOne);
    this.countTx = (g, month, day, at) => tx.immediate(g, month, day, at);
    const batchTx = sqlite.transaction((gs: AccessGranted[], month: string, day: string, at: Date) => gs.map((g) => countOne(g, month, day, at)));
    this.countBatchTx = (gs, month, day, at) => batchTx.immediate(gs, month, day, at);
  }

  /**
   * Checks a token without counting a call: format and checksum first (no DB), then the hash
   * lookup, the token and account state, the plan, and whether any quota is left. The granted
   * quota is the usage so far; consume() counts the call.
   */
  authenticate(token: string | undefined | null): AccessResult {
    if (token === undefined || token === null) return deny('missing_token', MSG_MISSING);
    const t = String(token).trim();
    if (t === '') return deny('missing_token', MSG_MISSING);
    if (!isWellFormedToken(t)) return deny('invalid_token', MSG_INVALID);

    const at = this.now();
    const r = this.lookup.get(spMonth(at), hashToken(t));
    if (!r) return deny('invalid_token', MSG_INVALID);
    if (r.invalidated_at !== null || r.status !== 'active') return deny('account_suspended', MSG_SUSPENDED);
    if (r.enabled !== 1) return deny('token_deactivated', MSG_DEACTIVATED);
    if (r.expires_at !== null && r.expires_at < spDay(at)) {
      return deny('token_expired', `Este token da API expirou em ${brDate(r.expires_at)}. Crie um novo em "Gerenciar Tokens da API".`);
    }
    if (r.api_included !== 1) return deny('plan_without_api', `O plano ${r.plan} não inclui acesso à API de CNPJ.`);

    const quota: QuotaState = { limit: r.monthly_quota, remaining: Math.max(0, r.monthly_quota - r.calls), reset: nextMonthStartEpoch(at) };
    if (quota.remaining === 0) return this.quotaExceeded(quota, at);
    return { ok: true, accountId: r.account_id, accountName: r.account_name, tokenId: r.token_id, quota };
  }

  /**
   * Counts one call for a granted access, atomically against the quota: of N concurrent calls
   * (any number of processes on the same app.db) at most `limit` are granted per month.
   * Returns the updated quota, or quota_exceeded when the last call was taken meanwhile.
   */
  consume(granted: AccessGranted): AccessResult {
    const at = this.now();
    return this.counted(granted, this.countTx(granted, spMonth(at), spDay(at), at), at);
  }

  /**
   * Same as consume(), but the calls arriving in the same event-loop turn share one transaction
   * (group commit): one fsync for the batch instead of one per call, which is what bounds
   * throughput with synchronous=FULL. Each call is still its own atomic check-and-increment, and
   * the promise settles only after COMMIT, so an answered call is never lost in a crash.
   */
  consumeGrouped(granted: AccessGranted): Promise<AccessResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ g: granted, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    const at = this.now();
    let results: (number | undefined)[];
    try {
      results = this.countBatchTx(batch.map((b) => b.g), spMonth(at), spDay(at), at);
    } catch (err) {
      for (const b of batch) b.reject(err);
      return;
    }
    batch.forEach((b, i) => b.resolve(this.counted(b.g, results[i], at)));
  }

  private counted(granted: AccessGranted, calls: number | undefined, at: Date): AccessResult {
    const reset = nextMonthStartEpoch(at);
    const limit = granted.quota.limit;
    if (calls === undefined) return this.quotaExceeded({ limit, remaining: 0, reset }, at);
    return { ...granted, quota: { limit, remaining: Math.max(0, limit - calls), reset } };
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
