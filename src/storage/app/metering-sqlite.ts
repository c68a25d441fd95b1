// The metering's reads and counts on app.db (storage/app/metering.ts says what they promise).
// Prepared statements on the API's own connection, no query builder: this runs on every request.
// A batch is counted in ONE transaction taken with the write lock (BEGIN IMMEDIATE), so the
// monthly counts it reads are exact across every process on the file; with a WalSync it commits
// without fsync and is durable once WalSync's fdatasync, off the event loop, is done.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../sqlite.ts';
import type {
  AccountRead,
  AccountRecord,
  ContactRow,
  ContactsStore,
  CountBatch,
  Counted,
  Epochs,
  MeteringStore,
  TokenRead,
  TokenRecord,
} from './metering.ts';
import type { WalSync } from './wal-sync.ts';
import { busyWaitOff } from './write-retry.ts';

/** How long a batch keeps retrying for the write lock before its calls fail (500). */
const LOCK_WAIT_MS = 10_000;

const TOKEN_SQL = `SELECT t.id AS token_id, t.token_hash, t.account_id, t.enabled, t.expires_at, t.invalidated_at,
       a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included
  FROM api_tokens t JOIN accounts a ON a.id = t.account_id JOIN plans p ON p.name = a.plan`;
const ACCOUNT_SQL = `SELECT a.id AS account_id, a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included
  FROM accounts a JOIN plans p ON p.name = a.plan`;

export class SqliteMetering implements MeteringStore, ContactsStore {
  private readonly epochRead: Statement<[], Epochs>;
  private readonly tokenByHashRead: Statement<[string], TokenRecord>;
  private readonly tokenByIdRead: Statement<[number], TokenRecord>;
  private readonly accountRead: Statement<[number], AccountRecord>;
  private readonly monthlyCalls: Statement<[number, string], number>;
  private readonly addMonthly: Statement<[number, string, number]>;
  private readonly bumpDaily: Statement<[number, string, number]>;
  private readonly bumpDailyWeb: Statement<[number, string, number]>;
  private readonly touch: Statement<[string, number, string]>;
  private readonly contactCount: Statement<[], number>;
  private readonly contactRows: Statement<[], ContactRow>;
  private readonly contactsOf: Statement<[string], ContactRow>;
  /** The batch transaction, BEGIN IMMEDIATE … COMMIT: the write lock up front, all or nothing. */
  private readonly tx: (batch: CountBatch) => Counted;

  /**
   * `walSync`: the batch commits with synchronous=NORMAL and is durable once this WAL flush is
   * done; a busy write lock is then retried on a later turn instead of waited for in SQLite
   * (its busy handler sleeps on the event loop). Without it, each batch is a COMMIT as durable as
   * the connection's own setting, waited for on the calling thread.
   */
  constructor(
    private readonly sqlite: Sqlite,
    private readonly walSync?: WalSync,
  ) {
    this.epochRead = sqlite.prepare(
      'SELECT (SELECT n FROM auth_epoch WHERE id = 1) AS auth, (SELECT n FROM contacts_epoch WHERE id = 1) AS contacts',
    );
    this.tokenByHashRead = sqlite.prepare(`${TOKEN_SQL} WHERE t.token_hash = ?`);
    this.tokenByIdRead = sqlite.prepare(`${TOKEN_SQL} WHERE t.id = ?`);
    this.accountRead = sqlite.prepare(`${ACCOUNT_SQL} WHERE a.id = ?`);
    this.monthlyCalls = sqlite
      .prepare<[number, string], number>('SELECT calls FROM usage_monthly WHERE account_id = ? AND month = ?')
      .pluck();
    // Additive: written once per account at the end of a batch (MonthTally), which read the count
    // under the same write lock.
    this.addMonthly = sqlite.prepare(
      `INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, ?)
       ON CONFLICT (account_id, month) DO UPDATE SET calls = calls + excluded.calls`,
    );
    this.bumpDaily = sqlite.prepare(
      `INSERT INTO usage_daily (token_id, day, calls) VALUES (?, ?, ?)
       ON CONFLICT (token_id, day) DO UPDATE SET calls = calls + excluded.calls`,
    );
    // The Consulta page's calls have no token: their day is the account's (migration 0006).
    this.bumpDailyWeb = sqlite.prepare(
      `INSERT INTO usage_daily_web (account_id, day, calls) VALUES (?, ?, ?)
       ON CONFLICT (account_id, day) DO UPDATE SET calls = calls + excluded.calls`,
    );
    // The WHERE keeps several server processes from each rewriting the same minute.
    this.touch = sqlite.prepare(
      'UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    );
    this.contactCount = sqlite.prepare<[], number>('SELECT count(*) FROM extra_contacts').pluck();
    this.contactRows = sqlite
      .prepare<[], ContactRow>('SELECT cnpj, tipo_contato, tipo_website, contato FROM extra_contacts ORDER BY id')
      .raw();
    this.contactsOf = sqlite
      .prepare<[string], ContactRow>(
        'SELECT cnpj, tipo_contato, tipo_website, contato FROM extra_contacts WHERE cnpj = ? ORDER BY id',
      )
      .raw();
    const tx = sqlite.transaction((batch: CountBatch) => this.countNow(batch));
    this.tx = (batch) => tx.immediate(batch);
  }

  tokenByHash(hash: string, month?: string): Promise<TokenRead> {
    const epochs = this.epochRead.get()!;
    const record = this.tokenByHashRead.get(hash);
    const monthCalls = month && record ? (this.monthlyCalls.get(record.account_id, month) ?? 0) : 0;
    return Promise.resolve({ epochs, record, monthCalls });
  }

  tokensById(ids: readonly number[]): Promise<{ epochs: Epochs; records: TokenRecord[] }> {
    const epochs = this.epochRead.get()!;
    const records = ids.map((id) => this.tokenByIdRead.get(id)).filter((r) => r !== undefined);
    return Promise.resolve({ epochs, records });
  }

  accountWithUsage(id: number, month: string): Promise<AccountRead> {
    const epochs = this.epochRead.get()!;
    const record = this.accountRead.get(id);
    const monthCalls = record ? (this.monthlyCalls.get(id, month) ?? 0) : 0;
    return Promise.resolve({ epochs, record, monthCalls });
  }

  accounts(ids: readonly number[]): Promise<{ epochs: Epochs; records: AccountRecord[] }> {
    const epochs = this.epochRead.get()!;
    const records = ids.map((id) => this.accountRead.get(id)).filter((r) => r !== undefined);
    return Promise.resolve({ epochs, records });
  }

  /** Committed now (with a WalSync, SQLITE_BUSY at once when another process writes), durable when it resolves. */
  count(batch: CountBatch): Promise<Counted> {
    const counted = this.runBatch(batch);
    return this.walSync ? this.walSync.sync().then(() => counted) : Promise.resolve(counted);
  }

  retry(err: unknown, since: number): boolean {
    return (
      this.walSync !== undefined &&
      (err as { code?: string }).code === 'SQLITE_BUSY' &&
      Date.now() - since < LOCK_WAIT_MS
    );
  }

  snapshot(max: number): Promise<{ epoch: number; rows: ContactRow[] | null }> {
    // A read transaction: the epoch and the rows of the same commit.
    const read = (): { epoch: number; rows: ContactRow[] | null } => ({
      epoch: this.epochRead.get()!.contacts,
      rows: this.contactCount.get()! > max ? null : this.contactRows.all(),
    });
    return Promise.resolve(this.sqlite.transaction(read).deferred());
  }

  lookup(cnpj: string): ContactRow[] {
    return this.contactsOf.all(cnpj);
  }

  private runBatch(batch: CountBatch): Counted {
    // With a WalSync the batch never waits for the lock on the event loop: retry() tries it again.
    if (!this.walSync) return this.tx(batch);
    const restore = busyWaitOff(this.sqlite);
    try {
      return this.tx(batch);
    } finally {
      restore();
    }
  }

  /** Inside the batch transaction: the epoch compared, each call checked and counted in order. */
  private countNow(b: CountBatch): Counted {
    const epochs = this.epochRead.get()!;
    if (epochs.auth !== b.epoch) return { epochs, fit: null };
    const tally = new MonthTally(
      (accountId) => this.monthlyCalls.get(accountId, b.month) ?? 0,
      (accountId, n) => this.addMonthly.run(accountId, b.month, n),
    );
    const ok: boolean[] = [];
    const used: number[] = [];
    const tokenCalls = new Map<number, number>();
    const webCalls = new Map<number, number>();
    for (let i = 0; i < b.accounts.length; i++) {
      const account = b.accounts[i];
      const token = b.tokens[i];
      const n = b.calls[i];
      const fits = tally.charge(account, n, b.limits[i]);
      ok.push(fits);
      used.push(tally.used(account));
      if (!fits) continue;
      const perDay = token === 0 ? webCalls : tokenCalls;
      const key = token === 0 ? account : token;
      perDay.set(key, (perDay.get(key) ?? 0) + n);
    }
    tally.write();
    for (const [accountId, n] of webCalls) this.bumpDailyWeb.run(accountId, b.day, n);
    for (const [tokenId, n] of tokenCalls) this.bumpDaily.run(tokenId, b.day, n);
    if (b.touch.length > 0) {
      const at = b.at.toISOString();
      const before = b.touchBefore.toISOString();
      for (const tokenId of b.touch) if (tokenCalls.has(tokenId)) this.touch.run(at, tokenId, before);
    }
    return { epochs, fit: { ok, used } };
  }
}

/**
 * The monthly counters as one batch transaction sees them: each account's count read once, the
 * calls checked and counted in memory, one additive write per account at the end. Under the
 * transaction's write lock nobody else can count meanwhile, so this is as exact as one
 * check-and-increment statement per call, for a read and a write per account instead of an UPSERT
 * per call (docs/benchmarks.md). The PostgreSQL twin of this rule is count_calls()
 * (migrations/postgres/0002), held equal by the tests that run on both backends.
 */
export class MonthTally {
  /** Calls per account: as read, then as counted so far. */
  private readonly calls = new Map<number, number>();
  /** Calls counted here per account, written by write(). */
  private readonly added = new Map<number, number>();

  constructor(
    private readonly read: (accountId: number) => number,
    private readonly add: (accountId: number, n: number) => void,
  ) {}

  /** The account's calls this month, those counted here included. */
  used(accountId: number): number {
    let c = this.calls.get(accountId);
    if (c === undefined) this.calls.set(accountId, (c = this.read(accountId)));
    return c;
  }

  /** Counts `n` calls if they all fit under `limit` (a limit of 0 fits none); false counts nothing. */
  charge(accountId: number, n: number, limit: number): boolean {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`calls must be a positive integer, got ${n}`);
    const c = this.used(accountId) + n;
    if (c > limit) return false;
    this.calls.set(accountId, c);
    this.added.set(accountId, (this.added.get(accountId) ?? 0) + n);
    return true;
  }

  write(): void {
    for (const [accountId, n] of this.added) this.add(accountId, n);
    this.added.clear();
  }
}
