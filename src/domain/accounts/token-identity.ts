// Token identity: may this token call the API? Decided in memory on the hot path. A malformed
// token is refused on its shape and checksum alone, without a database read; a well-formed one
// by its record (token, account, plan), kept in memory while auth_epoch holds still (every
// change to those rows bumps it, from any process). Prepared statements, no query builder:
// this runs on every request.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../storage/sqlite.ts';
import { ERRORS } from '../api-errors.ts';
import { deny, type AccessDenied, type AccessIdentity } from './access-result.ts';
import { spDay, type Clock } from './time.ts';
import { hashToken, isWellFormedToken } from './token-format.ts';

/** Everything the token check reads, for one token hash. */
export interface TokenRecord {
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

/** Token records kept in memory; the map is emptied when full (a bound, not an LRU). */
export const TOKEN_CACHE_MAX = 10_000;

/** The trimmed token, or the denial for a missing or malformed one (no database read). */
export function tokenText(token: string | undefined | null): string | AccessDenied {
  if (token === undefined || token === null) return deny('missing_token');
  const t = String(token).trim();
  if (t === '') return deny('missing_token');
  return isWellFormedToken(t) ? t : deny('invalid_token');
}

export function decide(r: TokenRecord, at: Date): AccessIdentity | AccessDenied {
  if (r.invalidated_at !== null || r.status !== 'active') return deny('account_suspended');
  if (r.enabled !== 1) return deny('token_deactivated');
  if (r.expires_at !== null && r.expires_at < spDay(at)) {
    return deny('token_expired', ERRORS.token_expired.specific({ expiresOn: r.expires_at }));
  }
  if (r.api_included !== 1) return deny('plan_without_api', ERRORS.plan_without_api.specific({ plan: r.plan }));
  return {
    ok: true,
    accountId: r.account_id,
    accountName: r.account_name,
    tokenId: r.token_id,
    limit: r.monthly_quota,
  };
}

export class TokenIdentity {
  private readonly tokenByHash: Statement<[string], TokenRecord>;
  private readonly tokenById: Statement<[number], TokenRecord>;
  private readonly epochs: Statement<[], { auth: number; contacts: number }>;
  /** Token records by hash, valid while auth_epoch keeps the value they were read under. */
  private readonly tokens = new Map<string, TokenRecord>();
  private tokensEpoch = -1;
  private lastContactsEpoch = -1;

  constructor(
    sqlite: Sqlite,
    private readonly now: Clock,
  ) {
    const tokenSql = (where: string) =>
      `SELECT t.id AS token_id, t.account_id, t.enabled, t.expires_at, t.invalidated_at,
              a.name AS account_name, a.status, a.plan, p.monthly_quota, p.api_included
       FROM api_tokens t
       JOIN accounts a ON a.id = t.account_id
       JOIN plans p ON p.name = a.plan
       WHERE ${where}`;
    this.tokenByHash = sqlite.prepare(tokenSql('t.token_hash = ?'));
    this.tokenById = sqlite.prepare(tokenSql('t.id = ?'));
    this.epochs = sqlite.prepare(
      'SELECT (SELECT n FROM auth_epoch WHERE id = 1) AS auth, (SELECT n FROM contacts_epoch WHERE id = 1) AS contacts',
    );
  }

  /**
   * Checks a token on fresh data: format and checksum first (no DB), then auth_epoch, the
   * token's record (from memory if the epoch did not move), its state, the account's state and
   * the plan.
   */
  identify(token: string | undefined | null): AccessIdentity | AccessDenied {
    const t = tokenText(token);
    return typeof t === 'string' ? this.identifyHash(hashToken(t)) : t;
  }

  /**
   * The hot path's identify(): a token already in memory is granted without reading auth_epoch,
   * because counting the call re-reads it inside the counting transaction (refresh()) and
   * decides the token again if anything changed (redecide()). Denials, and tokens not in
   * memory, go through identify() and so are always decided on fresh data.
   */
  identifyForCount(token: string | undefined | null): AccessIdentity | AccessDenied {
    const t = tokenText(token);
    if (typeof t !== 'string') return t;
    const hash = hashToken(t);
    const r = this.tokens.get(hash);
    if (r !== undefined) {
      const d = decide(r, this.now());
      if (d.ok) return d;
    }
    return this.identifyHash(hash);
  }

  /**
   * contacts_epoch as last read, in the same statement as auth_epoch (by identify() or inside a
   * count): the API's contacts copy keys on it without a read of its own.
   */
  get contactsEpoch(): number {
    return this.lastContactsEpoch;
  }

  /**
   * Reads the epochs; when auth_epoch moved, forgets the token records and returns true. Inside
   * the counting transaction, true means: decide each call again (redecide()).
   */
  refresh(): boolean {
    const { auth, contacts } = this.epochs.get()!;
    this.lastContactsEpoch = contacts;
    if (auth === this.tokensEpoch) return false;
    this.tokens.clear();
    this.tokensEpoch = auth;
    return true;
  }

  /** A token decided again on its current rows (a token deactivated a moment ago is refused). */
  redecide(tokenId: number, at: Date): AccessIdentity | AccessDenied {
    const r = this.tokenById.get(tokenId);
    return r ? decide(r, at) : deny('invalid_token');
  }

  /** identify() once the token is known to be well formed: epoch read now, record, decision. */
  private identifyHash(hash: string): AccessIdentity | AccessDenied {
    this.refresh();
    let r = this.tokens.get(hash);
    if (r === undefined) {
      // Unknown hashes are not cached: a flood of made-up tokens cannot grow the map.
      r = this.tokenByHash.get(hash);
      if (r === undefined) return deny('invalid_token');
      if (this.tokens.size >= TOKEN_CACHE_MAX) this.tokens.clear();
      this.tokens.set(hash, r);
    }
    return decide(r, this.now());
  }
}
