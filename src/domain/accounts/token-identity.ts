// Token identity on app.db: may this token call the API? Decided in memory on the hot path
// (metering/decision.ts), by its record (token, account, plan), kept in memory while auth_epoch
// holds still (metering/token-cache.ts). Prepared statements, no query builder: this runs on every
// request.
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../../storage/sqlite.ts';
import { decide, tokenText, type TokenRecord } from '../metering/decision.ts';
import { deny, type AccessDenied, type AccessIdentity } from '../metering/result.ts';
import { TokenCache } from '../metering/token-cache.ts';
import type { Clock } from '../metering/time.ts';
import { hashToken } from '../metering/token-format.ts';

export class TokenIdentity {
  private readonly tokenByHash: Statement<[string], TokenRecord>;
  private readonly tokenById: Statement<[number], TokenRecord>;
  private readonly epochs: Statement<[], { auth: number; contacts: number }>;
  private readonly tokens = new TokenCache();
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
    return this.tokens.advance(auth);
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
      this.tokens.remember(hash, r);
    }
    return decide(r, this.now());
  }
}
