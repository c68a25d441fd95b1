// The API's hot path, composed: is this token allowed (TokenIdentity, in memory), then count
// one call against the monthly quota (QuotaCounter) in the counting transaction, which
// GroupCommit shares among the calls of one event-loop turn and makes durable before any
// answer leaves. What is promised: every answered call is counted on disk, quotas are exact
// across processes, and a change to a token, account or plan applies to the very next call.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../storage/sqlite.ts';
import type { WalSync } from '../../storage/app/wal-sync.ts';
import { charge, NO_TOKEN, type AccessLayer, type Charge } from '../metering/access.ts';
import { decideAccount, type AccountRecord } from '../metering/decision.ts';
import type { AccessObserver } from '../metering/observer.ts';
import type { AccessDenied, AccessIdentity, AccessResult } from '../metering/result.ts';
import { GroupCommit } from './group-commit.ts';
import { QuotaCounter } from './quota-counter.ts';
import { spDay, spMonth, systemClock, type Clock } from '../metering/time.ts';
import { TokenIdentity } from './token-identity.ts';

export interface ApiAccessOptions {
  now?: Clock;
  /**
   * Group commit without blocking: consumeGrouped() counts on `sqlite` with synchronous=NORMAL
   * and waits for this WAL flush before answering (see WalSync). Without it, each group commit
   * is a synchronous=FULL COMMIT on the calling thread.
   */
  walSync?: WalSync;
  /** Told of each durable group commit and each call refused for quota (the server's metrics). */
  observer?: AccessObserver;
}

export class ApiAccess implements AccessLayer {
  private readonly now: Clock;
  private readonly identity: TokenIdentity;
  private readonly quota: QuotaCounter;
  private readonly commit: GroupCommit<Charge, AccessResult>;
  private readonly accountById: Statement<[number], AccountRecord>;
  private readonly observer: AccessObserver | undefined;

  constructor(sqlite: Sqlite, opts: ApiAccessOptions = {}) {
    this.now = opts.now ?? systemClock;
    this.identity = new TokenIdentity(sqlite, this.now);
    this.quota = new QuotaCounter(sqlite, this.now);
    this.observer = opts.observer;
    const observer = opts.observer;
    this.commit = new GroupCommit(
      sqlite,
      (ids) => this.countAll(ids),
      opts.walSync,
      observer && ((size, seconds) => observer.committed(size, seconds)),
    );
    this.accountById = sqlite.prepare(
      `SELECT a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included
       FROM accounts a JOIN plans p ON p.name = a.plan WHERE a.id = ?`,
    );
  }

  /**
   * An account's own access, for a logged-in user of the web app (no token): the token's account
   * and plan rules (suspended, plan without API), read fresh; its calls are counted like a
   * token's by consume()/consumeGrouped() against the same monthly quota.
   */
  identifyAccount(accountId: number): AccessIdentity | AccessDenied {
    return decideAccount(accountId, this.accountById.get(accountId));
  }

  /** The token decided on fresh data, without reading usage (see TokenIdentity.identify). */
  identify(token: string | undefined | null): AccessIdentity | AccessDenied {
    return this.identity.identify(token);
  }

  /** The hot path's check: a token in memory is granted at once, and re-checked when counted. */
  identifyForCount(token: string | undefined | null): AccessIdentity | AccessDenied {
    return this.identity.identifyForCount(token);
  }

  /**
   * identify() plus this month's usage: the quota state for an answer that does not count a
   * call (400, 503), or quota_exceeded when nothing is left.
   */
  authenticate(token: string | undefined | null): AccessResult {
    const id = this.identity.identify(token);
    return id.ok ? this.quota.state(id) : id;
  }

  /** contacts_epoch as last read with auth_epoch: the API's contacts copy keys on it. */
  get contactsEpoch(): number {
    return this.identity.contactsEpoch;
  }

  /**
   * Counts one call (or `calls` at once, all or nothing) for a granted access, atomically
   * against the quota: of N concurrent calls (any number of processes on the same app.db) at
   * most `limit` are granted per month. Returns the updated quota, or quota_exceeded when fewer
   * than `calls` remain (nothing is counted then), or the token's denial when it changed since it
   * was identified.
   */
  consume(id: AccessIdentity, calls = 1): AccessResult {
    return this.commit.run([charge(id, calls)])[0];
  }

  /**
   * Same as consume(), but the calls arriving in the same event-loop turn share one transaction
   * (group commit): one flush to disk for the batch instead of one per call. Each request is
   * still its own atomic check-and-increment, and the promise settles only once the COMMIT is
   * durable. A batch of `calls` is reserved whole before any of its answers is made.
   */
  consumeGrouped(id: AccessIdentity, calls = 1): Promise<AccessResult> {
    return this.commit.submit(calls === 1 ? id : charge(id, calls));
  }

  /**
   * The counting transaction: if auth_epoch moved since the calls were identified, each is
   * decided again on the current rows (a token deactivated a moment ago is refused here), then
   * each call is checked and counted against the monthly counter (MonthTally: exact under the
   * transaction's write lock).
   */
  private countAll(ids: Charge[]): AccessResult[] {
    const at = this.now();
    const tally = this.quota.tally(spMonth(at));
    const recheck = this.identity.refresh();
    const tokenCalls = new Map<number, number>();
    const webCalls = new Map<number, number>();
    const out = ids.map((given): AccessResult => {
      const web = given.tokenId === NO_TOKEN;
      const id = !recheck
        ? given
        : web
          ? this.identifyAccount(given.accountId)
          : this.identity.redecide(given.tokenId, at);
      if (!id.ok) return id;
      const n = given.calls ?? 1;
      const calls = tally.take(id, n);
      if (calls === undefined) this.observer?.quotaRefused();
      if (calls !== undefined && !web) tokenCalls.set(id.tokenId, (tokenCalls.get(id.tokenId) ?? 0) + n);
      if (calls !== undefined && web) webCalls.set(id.accountId, (webCalls.get(id.accountId) ?? 0) + n);
      return this.quota.answer(id, calls, at, n, tally.used(id.accountId));
    });
    tally.write();
    this.quota.record(tokenCalls, spDay(at), at, webCalls);
    return out;
  }
}
