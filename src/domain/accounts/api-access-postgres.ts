// The API's hot path on the shared PostgreSQL of a fleet (docs/quotas-and-tokens.md): the same
// promises as ApiAccess on app.db — every answered call counted durably, quotas exact across
// every node, a change to a token, account or plan applies to the very next call — with
// - token records in memory keyed on auth_epoch (a miss is one query, which reads the epoch too);
// - the calls of a node counted in batches, ONE round trip each: count_calls() (PostgreSQL
//   migration 0002) checks the node's epoch, locks the batch's accounts in id order, applies
//   MonthTally's rules and commits with synchronous_commit = on; while a batch is on its way the
//   next calls queue for the one after (metering/batch-queue.ts, as GroupCommit's WAL flush does);
// - an unreachable database rejects with DatabaseUnavailable (503): the pool's connection timeout
//   and each query's read timeout bound the wait, and the pool reconnects by itself later.
import type pg from 'pg';
import { DatabaseUnavailable, isDatabaseUnavailable } from '../../storage/app/pg-errors.ts';
import { charge, NO_TOKEN, type AccessLayer, type Charge } from '../metering/access.ts';
import { BatchQueue } from '../metering/batch-queue.ts';
import { decide, decideAccount, tokenText, type AccountRecord, type TokenRecord } from '../metering/decision.ts';
import type { AccessObserver } from '../metering/observer.ts';
import { deny, type AccessDenied, type AccessIdentity, type AccessResult } from '../metering/result.ts';
import { TokenCache } from '../metering/token-cache.ts';
import { countAnswer, TOUCH_INTERVAL_MS, usageState } from './quota-counter.ts';
import { spDay, spMonth, systemClock, type Clock } from '../metering/time.ts';
import { hashToken } from '../metering/token-format.ts';

/** How long a hot-path query may take before its calls fail with 503 (the connection is dropped). */
const QUERY_TIMEOUT_MS = 5_000;
/** A batch whose epoch keeps moving (a storm of token changes) is decided again at most this often. */
const MAX_REDECIDE = 5;

export interface PgApiAccessOptions {
  now?: Clock;
  observer?: AccessObserver;
  /** Read timeout of each hot-path query (default 5 s). */
  queryTimeoutMs?: number;
  /**
   * Awaited with the contacts_epoch a count read, before its calls are answered: the API's
   * contacts copy is reloaded first when it moved (PgContactsCache.sync).
   */
  contacts?: { sync(epoch: number): void | Promise<void> };
}

interface EpochRow {
  auth: number;
  contacts: number;
}

type TokenRow = EpochRow & Partial<TokenRecord> & { token_hash?: string; month_calls?: number | null };

interface AccountRow extends EpochRow, AccountRecord {
  account_id: number | null;
}

interface CountRow extends EpochRow {
  ok: boolean[] | null;
  /** BIGINT[]: pg gives its elements as strings (only scalar BIGINTs are parsed to numbers). */
  used: (string | number)[] | null;
}

const TOKEN_COLUMNS = `t.id AS token_id, t.account_id, t.enabled, t.expires_at, t.invalidated_at, t.token_hash,
  a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included`;
const TOKEN_FROM = 'api_tokens t JOIN accounts a ON a.id = t.account_id JOIN plans p ON p.name = a.plan';
/** The epochs and the rows of `from … where`, read in one statement (one snapshot). */
const withEpochs = (select: string) =>
  `SELECT e.auth, e.contacts, r.* FROM
     (SELECT (SELECT n FROM auth_epoch WHERE id = 1) AS auth, (SELECT n FROM contacts_epoch WHERE id = 1) AS contacts) e
   LEFT JOIN (${select}) r ON true`;

const BY_HASH = withEpochs(
  `SELECT ${TOKEN_COLUMNS}, (SELECT calls FROM usage_monthly m WHERE m.account_id = t.account_id AND m.month = $2) AS month_calls
   FROM ${TOKEN_FROM} WHERE t.token_hash = $1`,
);
const BY_IDS = withEpochs(`SELECT ${TOKEN_COLUMNS} FROM ${TOKEN_FROM} WHERE t.id = ANY ($1::bigint[])`);
const ACCOUNTS = withEpochs(
  `SELECT a.id AS account_id, a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included
   FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.id = ANY ($1::bigint[])`,
);
const COUNT = 'SELECT auth, contacts, ok, used FROM count_calls($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';

/** decideAccount() on a row of ACCOUNTS, the identity marked with the epoch it was read under. */
function accountIdentity(r: AccountRow | undefined, epoch: number): AccessIdentity | AccessDenied {
  if (r === undefined || r.account_id === null) return deny('account_suspended');
  const d = decideAccount(r.account_id, r);
  if (d.ok) d.epoch = epoch;
  return d;
}

export class PgApiAccess implements AccessLayer {
  private readonly now: Clock;
  private readonly observer: AccessObserver | undefined;
  private readonly timeout: number;
  private readonly contacts: PgApiAccessOptions['contacts'];
  private readonly tokens = new TokenCache();
  private lastContactsEpoch = -1;
  private readonly lastTouch = new Map<number, number>();
  /** One count_calls() round trip on its way at a time; the calls arriving meanwhile go in the next. */
  private readonly queue: BatchQueue<Charge, AccessResult>;

  constructor(
    private readonly pool: pg.Pool,
    opts: PgApiAccessOptions = {},
  ) {
    this.now = opts.now ?? systemClock;
    this.observer = opts.observer;
    this.timeout = opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
    this.contacts = opts.contacts;
    const observer = opts.observer;
    this.queue = new BatchQueue((items) => this.countBatch(items), {
      onBatch: observer && ((size, seconds) => observer.committed(size, seconds)),
    });
  }

  get contactsEpoch(): number {
    return this.lastContactsEpoch;
  }

  /** The token decided on fresh rows (one query: the epochs and the record). */
  identify(token: string | undefined | null): AccessIdentity | AccessDenied | Promise<AccessIdentity | AccessDenied> {
    const t = tokenText(token);
    if (typeof t !== 'string') return t;
    return this.byHash(hashToken(t)).then((row) => this.decideRow(row));
  }

  /**
   * The hot path's check: a token in memory is granted at once (count_calls() compares the epoch
   * it was read under); denials and tokens not in memory are decided on fresh rows.
   */
  identifyForCount(
    token: string | undefined | null,
  ): AccessIdentity | AccessDenied | Promise<AccessIdentity | AccessDenied> {
    const t = tokenText(token);
    if (typeof t !== 'string') return t;
    const hash = hashToken(t);
    const r = this.tokens.get(hash);
    if (r !== undefined) {
      const d = decide(r, this.now());
      if (d.ok) {
        d.epoch = this.tokens.epoch;
        return d;
      }
    }
    return this.byHash(hash).then((row) => this.decideRow(row));
  }

  /** identify() plus this month's usage, read in the same statement. */
  async authenticate(token: string | undefined | null): Promise<AccessResult> {
    const t = tokenText(token);
    if (typeof t !== 'string') return t;
    const at = this.now();
    const row = await this.byHash(hashToken(t), spMonth(at));
    const id = this.decideRow(row);
    return id.ok ? usageState(id, row.month_calls ?? 0, at) : id;
  }

  async identifyAccount(accountId: number): Promise<AccessIdentity | AccessDenied> {
    const { rows } = await this.query<AccountRow>('cnpj_access_accounts', ACCOUNTS, [[accountId]]);
    this.lastContactsEpoch = rows[0].contacts;
    return accountIdentity(rows[0], rows[0].auth);
  }

  /** One call (or `calls` at once, all or nothing), in the next batch like consumeGrouped(). */
  consume(id: AccessIdentity, calls = 1): Promise<AccessResult> {
    return this.consumeGrouped(id, calls);
  }

  consumeGrouped(id: AccessIdentity, calls = 1): Promise<AccessResult> {
    return this.queue.submit(charge(id, calls));
  }

  /**
   * One batch: count_calls() with the oldest epoch its identities were decided under; when the
   * stored epoch moved, nothing was written: the token records are reloaded, every call decided
   * again (a token deactivated through another node is refused here), and the batch resent.
   */
  private async countBatch(items: Charge[]): Promise<AccessResult[]> {
    const at = this.now();
    const month = spMonth(at);
    const day = spDay(at);
    const ms = at.getTime();
    let ids: (AccessIdentity | AccessDenied)[] = items;
    for (let attempt = 0; ; attempt++) {
      const idx: number[] = [];
      const accounts: number[] = [];
      const tokens: number[] = [];
      const calls: number[] = [];
      const limits: number[] = [];
      const touch: number[] = [];
      let epoch = Number.POSITIVE_INFINITY;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        if (!id.ok) continue;
        idx.push(i);
        accounts.push(id.accountId);
        tokens.push(id.tokenId);
        calls.push(items[i].calls ?? 1);
        limits.push(id.limit);
        epoch = Math.min(epoch, id.epoch ?? -1);
        if (id.tokenId !== NO_TOKEN && ms - (this.lastTouch.get(id.tokenId) ?? 0) >= TOUCH_INTERVAL_MS) {
          if (!touch.includes(id.tokenId)) touch.push(id.tokenId);
        }
      }
      if (idx.length === 0) return ids as AccessResult[];
      const { rows } = await this.query<CountRow>('cnpj_count_calls', COUNT, [
        accounts,
        tokens,
        calls,
        limits,
        epoch,
        month,
        day,
        touch,
        at.toISOString(),
        new Date(ms - TOUCH_INTERVAL_MS).toISOString(),
      ]);
      const row = rows[0];
      if (row.ok === null || row.used === null) {
        if (attempt >= MAX_REDECIDE) throw new Error('auth_epoch kept moving while counting a batch');
        ids = await this.redecide(items, at);
        continue;
      }
      if (this.contacts && row.contacts !== this.lastContactsEpoch) await this.contacts.sync(row.contacts);
      this.lastContactsEpoch = row.contacts;
      const out = ids as AccessResult[];
      for (let j = 0; j < idx.length; j++) {
        const i = idx[j];
        const id = ids[i] as AccessIdentity;
        const n = calls[j];
        const ok = row.ok[j];
        const used = Number(row.used[j]);
        if (!ok) this.observer?.quotaRefused();
        else if (touch.length > 0 && touch.includes(id.tokenId)) this.lastTouch.set(id.tokenId, ms);
        out[i] = countAnswer(id, ok ? used : undefined, at, n, used);
      }
      return out;
    }
  }

  /** Every call of a batch decided again on the current rows (two queries: tokens, accounts). */
  private async redecide(items: Charge[], at: Date): Promise<(AccessIdentity | AccessDenied)[]> {
    const tokenIds = [...new Set(items.filter((c) => c.tokenId !== NO_TOKEN).map((c) => c.tokenId))];
    const accountIds = [...new Set(items.filter((c) => c.tokenId === NO_TOKEN).map((c) => c.accountId))];
    const byToken = new Map<number, AccessIdentity | AccessDenied>();
    const byAccount = new Map<number, AccessIdentity | AccessDenied>();
    if (tokenIds.length > 0) {
      const { rows } = await this.query<TokenRow>('cnpj_access_tokens', BY_IDS, [tokenIds]);
      this.reset(rows[0]);
      for (const r of rows) {
        if (r.token_id === null || r.token_id === undefined) continue;
        this.remember(r);
        const d = decide(r as TokenRecord, at);
        if (d.ok) d.epoch = r.auth;
        byToken.set(r.token_id, d);
      }
    }
    if (accountIds.length > 0) {
      const { rows } = await this.query<AccountRow>('cnpj_access_accounts', ACCOUNTS, [accountIds]);
      for (const r of rows) if (r.account_id !== null) byAccount.set(r.account_id, accountIdentity(r, r.auth));
    }
    return items.map((c) =>
      c.tokenId === NO_TOKEN
        ? (byAccount.get(c.accountId) ?? deny('account_suspended'))
        : (byToken.get(c.tokenId) ?? deny('invalid_token')),
    );
  }

  private byHash(hash: string, month = ''): Promise<TokenRow> {
    return this.query<TokenRow>('cnpj_access_token', BY_HASH, [hash, month]).then(({ rows }) => rows[0]);
  }

  /** A fresh row (epochs and maybe a token record): the cache brought to its epoch, the decision. */
  private decideRow(row: TokenRow): AccessIdentity | AccessDenied {
    this.reset(row);
    if (row.token_id === null || row.token_id === undefined) return deny('invalid_token');
    this.remember(row);
    const d = decide(row as TokenRecord, this.now());
    if (d.ok) d.epoch = row.auth;
    return d;
  }

  /** The epochs a statement read: the token records go when auth_epoch moved. */
  private reset(row: EpochRow): void {
    this.lastContactsEpoch = row.contacts;
    // A reply older than the records in memory (queries of two connections crossing) changes nothing.
    if (row.auth > this.tokens.epoch) this.tokens.advance(row.auth);
  }

  private remember(row: TokenRow): void {
    // Only records of the epoch in memory: one read under an older epoch may be stale.
    if (row.auth !== this.tokens.epoch || row.token_hash === undefined) return;
    const { auth: _a, contacts: _c, month_calls: _m, ...record } = row;
    this.tokens.remember(row.token_hash, record as TokenRecord);
  }

  /** A named (prepared once per connection) query; an unreachable database is DatabaseUnavailable. */
  private query<R extends pg.QueryResultRow>(
    name: string,
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    return this.pool
      .query<R>({ name, text, values, query_timeout: this.timeout } as pg.QueryConfig)
      .catch((err: unknown) => {
        throw isDatabaseUnavailable(err) ? new DatabaseUnavailable(err) : err;
      });
  }
}
