// The API's metering, once for both backends (docs/quotas-and-tokens.md): may this token (or this
// account) call, and count its calls against the monthly quota. What is promised: every answered
// call is counted durably, quotas are exact across processes and nodes, and a change to a token,
// an account or a plan applies to the very next call.
// - Token records are held in memory, keyed on auth_epoch (token-cache.ts): a token found there
//   is granted at once, and each identity carries the epoch it was decided under.
// - Calls are counted in batches (batch-queue.ts); a batch is counted under the oldest epoch of
//   its calls, and when the stored epoch has moved nothing is written: the calls are decided again
//   on the current records and the batch is resent.
// - The store (storage/app/metering.ts) reads and counts: app.db in process, the fleet's
//   PostgreSQL in one round trip each.
import type { AccountRecord, MeteringStore, TokenRead, TokenRecord } from '../../storage/app/metering.ts';
import { charge, NO_TOKEN, type AccessLayer, type Charge } from './access.ts';
import { BatchQueue } from './batch-queue.ts';
import { decide, decideAccount, tokenText } from './decision.ts';
import type { AccessObserver } from './observer.ts';
import { countAnswer, TOUCH_INTERVAL_MS, usageState } from './quota.ts';
import { deny, type AccessDenied, type AccessIdentity, type AccessResult } from './result.ts';
import { spDay, spMonth, systemClock, type Clock } from './time.ts';
import { TokenCache } from './token-cache.ts';
import { hashToken } from './token-format.ts';

/** A batch whose epoch keeps moving (a storm of token changes) is decided again at most this often. */
const MAX_REDECIDE = 5;

export interface MeterOptions {
  now?: Clock;
  /** Told of each durable batch and each call refused for quota (the server's metrics). */
  observer?: AccessObserver;
  /**
   * Awaited with the contacts epoch a count saw, before its calls are answered: the lookups' copy
   * of the extra contacts is brought to it first (ContactsCopy.sync), and a lookup, which follows
   * its count, reads it without a read of its own.
   */
  contacts?: { sync(epoch: number): void | Promise<void> };
}

export class Meter implements AccessLayer {
  private readonly now: Clock;
  private readonly observer: AccessObserver | undefined;
  private readonly contacts: MeterOptions['contacts'];
  private readonly tokens = new TokenCache();
  private readonly lastTouch = new Map<number, number>();
  /**
   * Accounts seen with no call left, and the month (São Paulo) they were seen in: their tokens are
   * decided on fresh records with their usage at each call (one read, no route work) until the
   * month turns or a read finds room again (a plan raised, usage reset).
   */
  private readonly exhausted = new Map<number, string>();
  /** One batch on its way at a time; the calls arriving meanwhile go in the next. */
  private readonly queue: BatchQueue<Charge, AccessResult>;
  /** The token hashes of exhausted accounts' calls, read again in batches like the counts. */
  private readonly rechecks = new BatchQueue<string, AccessResult>((hashes) => this.recheck(hashes));

  constructor(
    private readonly store: MeteringStore,
    opts: MeterOptions = {},
  ) {
    this.now = opts.now ?? systemClock;
    this.observer = opts.observer;
    this.contacts = opts.contacts;
    const observer = opts.observer;
    this.queue = new BatchQueue((items) => this.countBatch(items), {
      onBatch: observer && ((size, seconds) => observer.committed(size, seconds)),
      retry: store.retry && ((err, since) => store.retry!(err, since)),
    });
  }

  /** The token decided on fresh records (one read: the epochs and the record). */
  async identify(token: string | undefined | null): Promise<AccessIdentity | AccessDenied> {
    const t = tokenText(token);
    if (typeof t !== 'string') return t;
    return this.decideRead(await this.store.tokenByHash(hashToken(t)));
  }

  /**
   * The hot path's check: a token in memory is granted at once (its count compares the epoch it
   * was read under); denials and tokens not in memory are decided on fresh records with this
   * month's usage, so a token whose quota is used up is refused here, before the route's work (a
   * search's engine), not only when its call is counted.
   */
  async identifyForCount(token: string | undefined | null): Promise<AccessIdentity | AccessDenied> {
    const t = tokenText(token);
    if (typeof t !== 'string') return t;
    const hash = hashToken(t);
    const at = this.now();
    const r = this.tokens.get(hash);
    if (r !== undefined) {
      const d = decide(r, at);
      if (d.ok && !this.isExhausted(d.accountId, at)) {
        d.epoch = this.tokens.epoch;
        return d;
      }
      // Its account had no call left: read again in a batch per event-loop turn, as counts are, so
      // a flood of its calls waits for its turn instead of being answered in one run of microtasks
      // (app.db answers a read at once) while other clients' sockets wait.
      if (d.ok) return this.rechecks.submit(hash);
    }
    return this.readWithUsage(hash, at);
  }

  /**
   * identify() plus this month's usage, read together: the quota state for an answer that counts
   * no call (400, 503), or quota_exceeded when nothing is left.
   */
  authenticate(token: string | undefined | null): Promise<AccessResult> {
    const t = tokenText(token);
    if (typeof t !== 'string') return Promise.resolve(t);
    return this.readWithUsage(hashToken(t), this.now());
  }

  /**
   * An account's own access, for a logged-in user of the web app (no token) and the compat open
   * account: the token's account and plan rules, read fresh with the month's usage in one read,
   * so an account with no call left is refused (quota_exceeded) before any work, as a token is;
   * its calls count in the same monthly quota.
   */
  async identifyAccount(accountId: number): Promise<AccessIdentity | AccessDenied> {
    const at = this.now();
    const read = await this.store.accountWithUsage(accountId, spMonth(at));
    const id = decidedAccount(accountId, read.record, read.epochs.auth);
    if (!id.ok) return id;
    const state = usageState(id, read.monthCalls, at);
    return state.ok ? id : state;
  }

  /**
   * Counts a call (or `calls` at once, all or nothing, for a batch lookup) of a granted access:
   * the calls arriving together share one batch, and the promise settles once the batch is
   * durable. The updated quota, or quota_exceeded when fewer than `calls` remain (nothing is
   * counted then), or the access's denial when it changed since it was identified.
   */
  charge(id: AccessIdentity, calls = 1): Promise<AccessResult> {
    return this.queue.submit(charge(id, calls));
  }

  /** One batch, counted under the oldest epoch of its calls; decided again while that epoch moved. */
  private async countBatch(items: Charge[]): Promise<AccessResult[]> {
    const at = this.now();
    const ms = at.getTime();
    let ids: (AccessIdentity | AccessDenied)[] = items;
    for (let attempt = 0; ; attempt++) {
      const idx: number[] = [];
      const accounts: number[] = [];
      const tokens: number[] = [];
      const calls: number[] = [];
      const limits: number[] = [];
      const touching = new Set<number>();
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
          touching.add(id.tokenId);
        }
      }
      if (idx.length === 0) return ids as AccessResult[];
      const counted = await this.store.count({
        accounts,
        tokens,
        calls,
        limits,
        epoch,
        month: spMonth(at),
        day: spDay(at),
        touch: [...touching],
        at,
        touchBefore: new Date(ms - TOUCH_INTERVAL_MS),
      });
      if (counted.fit === null) {
        if (attempt >= MAX_REDECIDE) throw new Error('auth_epoch kept moving while counting a batch');
        ids = await this.redecide(items, at);
        continue;
      }
      await this.contacts?.sync(counted.epochs.contacts);
      const out = ids as AccessResult[];
      for (let j = 0; j < idx.length; j++) {
        const i = idx[j];
        const id = ids[i] as AccessIdentity;
        const ok = counted.fit.ok[j];
        const used = counted.fit.used[j];
        if (!ok) {
          this.observer?.quotaRefused();
          if (used >= limits[j]) this.exhausted.set(id.accountId, spMonth(at));
        } else if (touching.has(id.tokenId)) this.lastTouch.set(id.tokenId, ms);
        out[i] = countAnswer(id, ok ? used : undefined, at, calls[j], used);
      }
      return out;
    }
  }

  /** Every call of a batch decided again on the current records (a token deactivated a moment ago is refused). */
  private async redecide(items: Charge[], at: Date): Promise<(AccessIdentity | AccessDenied)[]> {
    const tokenIds = [...new Set(items.filter((c) => c.tokenId !== NO_TOKEN).map((c) => c.tokenId))];
    const accountIds = [...new Set(items.filter((c) => c.tokenId === NO_TOKEN).map((c) => c.accountId))];
    const byToken = new Map<number, AccessIdentity | AccessDenied>();
    const byAccount = new Map<number, AccessIdentity | AccessDenied>();
    if (tokenIds.length > 0) {
      const { epochs, records } = await this.store.tokensById(tokenIds);
      this.advance(epochs.auth);
      for (const r of records) {
        this.remember(r, epochs.auth);
        byToken.set(r.token_id, decidedToken(r, at, epochs.auth));
      }
    }
    if (accountIds.length > 0) {
      const { epochs, records } = await this.store.accounts(accountIds);
      for (const r of records) byAccount.set(r.account_id, decidedAccount(r.account_id, r, epochs.auth));
    }
    return items.map((c) =>
      c.tokenId === NO_TOKEN
        ? (byAccount.get(c.accountId) ?? deny('account_suspended'))
        : (byToken.get(c.tokenId) ?? deny('invalid_token')),
    );
  }

  /** The token decided on fresh records with its account's usage in the month of `at`; the exhausted mark kept up to date. */
  private async readWithUsage(hash: string, at: Date): Promise<AccessResult> {
    const month = spMonth(at);
    const read = await this.store.tokenByHash(hash, month);
    const id = this.decideRead(read);
    if (!id.ok) return id;
    const state = usageState(id, read.monthCalls, at);
    if (state.ok) this.exhausted.delete(id.accountId);
    else this.exhausted.set(id.accountId, month);
    return state;
  }

  /** The tokens of a batch of rechecks, each distinct one read once. */
  private async recheck(hashes: string[]): Promise<AccessResult[]> {
    const at = this.now();
    const distinct = [...new Set(hashes)];
    const decided = await Promise.all(distinct.map((h) => this.readWithUsage(h, at)));
    const byHash = new Map(distinct.map((h, i) => [h, decided[i]]));
    return hashes.map((h) => ({ ...byHash.get(h)! }));
  }

  /** Marked with no call left in the month of `at` (the month read only for a marked account: the hot path). */
  private isExhausted(accountId: number, at: Date): boolean {
    const month = this.exhausted.get(accountId);
    return month !== undefined && month === spMonth(at);
  }

  /** A fresh read: the cache brought to its epoch, the record kept, the decision. */
  private decideRead(read: TokenRead): AccessIdentity | AccessDenied {
    this.advance(read.epochs.auth);
    // Unknown hashes are not kept: a flood of made-up tokens cannot grow the cache.
    if (read.record === undefined) return deny('invalid_token');
    this.remember(read.record, read.epochs.auth);
    return decidedToken(read.record, this.now(), read.epochs.auth);
  }

  /** The token records go when auth_epoch moved. */
  private advance(auth: number): void {
    // A read older than the records in memory (two reads crossing on the network) changes nothing.
    if (auth > this.tokens.epoch) this.tokens.advance(auth);
  }

  private remember(record: TokenRecord, epoch: number): void {
    // Only records of the epoch in memory: one read under an older epoch may be stale.
    if (epoch === this.tokens.epoch) this.tokens.remember(record.token_hash, record);
  }
}

/** decide(), the identity marked with the epoch it was read under. */
function decidedToken(r: TokenRecord, at: Date, epoch: number): AccessIdentity | AccessDenied {
  const d = decide(r, at);
  if (d.ok) d.epoch = epoch;
  return d;
}

/** decideAccount(), the identity marked with the epoch it was read under. */
function decidedAccount(accountId: number, r: AccountRecord | undefined, epoch: number): AccessIdentity | AccessDenied {
  const d = decideAccount(accountId, r);
  if (d.ok) d.epoch = epoch;
  return d;
}
