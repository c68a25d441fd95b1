// API tokens: created by a billing administrator (web) or the operator (CLI), shown once.
// States (docs/quotas-and-tokens.md): invalidated (account suspended, permanent) > deactivated (toggle) >
// expired (past expires_at, a São Paulo date) > active.
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { ACCOUNT_LOCK, getAccount } from './accounts.ts';
import { AccountsError } from './errors.ts';
import { isCalendarDate } from '../../lib/calendar.ts';
import { spDay, spDayPlus, systemClock, type Clock } from '../metering/time.ts';
import { displayPrefix, generateToken, hashToken } from '../metering/token-format.ts';

export type TokenState = 'active' | 'deactivated' | 'expired' | 'invalidated';

export interface ApiTokenInfo {
  id: number;
  accountId: number;
  name: string;
  /** Non-secret start of the token, e.g. `cnpj_Ab3x`. */
  displayPrefix: string;
  /** Last valid day, 'YYYY-MM-DD' (America/Sao_Paulo); null = permanent. */
  expiresAt: string | null;
  enabled: boolean;
  invalidatedAt: string | null;
  createdAt: string;
  /** User id as text, or 'cli'. */
  createdBy: string;
  lastUsedAt: string | null;
  state: TokenState;
}

export interface TokenStateFields {
  enabled: number | boolean;
  expires_at: string | null;
  invalidated_at: string | null;
}

/** `today` is the São Paulo date 'YYYY-MM-DD'; a token is valid through its expires_at day. */
export function tokenState(t: TokenStateFields, today: string): TokenState {
  if (t.invalidated_at !== null) return 'invalidated';
  if (!t.enabled) return 'deactivated';
  if (t.expires_at !== null && t.expires_at < today) return 'expired';
  return 'active';
}

interface TokenRow {
  id: number;
  account_id: number;
  name: string;
  token_hash: string;
  display_prefix: string;
  expires_at: string | null;
  enabled: 0 | 1;
  invalidated_at: string | null;
  created_at: string;
  created_by: string;
  last_used_at: string | null;
}

const fromRow = (r: TokenRow, today: string): ApiTokenInfo => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  displayPrefix: r.display_prefix,
  expiresAt: r.expires_at,
  enabled: r.enabled === 1,
  invalidatedAt: r.invalidated_at,
  createdAt: r.created_at,
  createdBy: r.created_by,
  lastUsedAt: r.last_used_at,
  state: tokenState(r, today),
});

export const MAX_EXPIRY_DAYS = 3650;

/**
 * Expiry choice to the stored value: `30d` (N days from today, 1–3650), `YYYY-MM-DD` (last valid
 * day, today or later), `never` / `permanent` / empty → null (permanent).
 */
export function parseExpiry(spec: string | null | undefined, now: Clock = systemClock): string | null {
  const s = String(spec ?? '')
    .trim()
    .toLowerCase();
  if (s === '' || s === 'never' || s === 'permanent') return null;
  const days = /^(\d{1,5})d$/.exec(s);
  if (days) {
    const n = Number(days[1]);
    if (n < 1 || n > MAX_EXPIRY_DAYS)
      throw new AccountsError('invalid_input', `The expiry must be 1 to ${MAX_EXPIRY_DAYS} days.`, 'expiry_days');
    return spDayPlus(now(), n);
  }
  if (isCalendarDate(s)) {
    const today = spDay(now());
    if (s < today) throw new AccountsError('invalid_input', `The expiry date ${s} is in the past.`, 'expiry_past');
    if (s > spDayPlus(now(), MAX_EXPIRY_DAYS))
      throw new AccountsError(
        'invalid_input',
        `The expiry date ${s} is too far ahead (at most ${MAX_EXPIRY_DAYS} days).`,
        'expiry_too_far',
      );
    return s;
  }
  throw new AccountsError(
    'invalid_input',
    `Expiry "${spec}" not recognised: use 30d (days), YYYY-MM-DD or never.`,
    'expiry_unrecognised',
  );
}

export interface NewToken {
  accountId: number;
  name: string;
  /** As accepted by parseExpiry; undefined = permanent. */
  expires?: string | null;
  /** The creating user's id, or 'cli'. */
  createdBy: number | 'cli';
}

export interface CreatedToken {
  id: number;
  /** The secret: show it once, it cannot be recovered. */
  token: string;
  info: ApiTokenInfo;
}

/**
 * Makes a token for an active account. The status check and the insert run under the account's
 * lock, which suspendAccount() also takes: a suspension on another node cannot slip between them
 * and leave a token it did not invalidate.
 */
export async function createToken(store: AppStore, input: NewToken, now: Clock = systemClock): Promise<CreatedToken> {
  const name = String(input.name ?? '')
    .trim()
    .replace(/\s+/g, ' ');
  if (!name || name.length > 100)
    throw new AccountsError('invalid_input', 'The token name must have 1 to 100 characters.', 'token_name');
  const expiresAt = parseExpiry(input.expires, now);
  const token = generateToken();
  const r = await writeTransaction(store, async (tx) => {
    await lockFor(tx, ACCOUNT_LOCK, input.accountId);
    const account = await getAccount(tx, input.accountId);
    if (!account) throw new AccountsError('not_found', `Account ${input.accountId} does not exist.`);
    if (account.status !== 'active') {
      throw new AccountsError(
        'invalid_state',
        `Account "${account.name}" is suspended; no token can be created.`,
        'account_suspended',
      );
    }
    return tx.db
      .insertInto('api_tokens')
      .values({
        account_id: account.id,
        name,
        token_hash: hashToken(token),
        display_prefix: displayPrefix(token),
        expires_at: expiresAt,
        enabled: 1,
        created_at: now().toISOString(),
        created_by: String(input.createdBy),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return { id: r.id, token, info: fromRow(r, spDay(now())) };
}

export async function listTokens(
  store: AppStore,
  accountId: number,
  now: Clock = systemClock,
): Promise<ApiTokenInfo[]> {
  const today = spDay(now());
  const rows = await store.db
    .selectFrom('api_tokens')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map((r) => fromRow(r, today));
}

export async function getTokenInfo(
  store: AppStore,
  id: number,
  now: Clock = systemClock,
): Promise<ApiTokenInfo | null> {
  const r = await store.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? fromRow(r, spDay(now())) : null;
}

export interface TokenScope {
  /** When given, the token must belong to this account (web app: the user's own account). */
  accountId?: number;
}

async function setEnabled(
  store: AppStore,
  id: number,
  enabled: boolean,
  scope: TokenScope,
  now: Clock,
): Promise<ApiTokenInfo> {
  return writeTransaction(store, async (tx) => {
    const t = await getTokenInfo(tx, id, now);
    if (!t || (scope.accountId !== undefined && t.accountId !== scope.accountId)) {
      throw new AccountsError('not_found', `Token ${id} does not exist.`, 'token_not_found');
    }
    // No lock needed: a suspension committing meanwhile sets invalidated_at, which outranks enabled.
    if (enabled && t.state === 'invalidated') {
      throw new AccountsError(
        'invalid_state',
        `Token ${id} was invalidated by the account's suspension and cannot be activated again; create a new one.`,
        'token_invalidated',
      );
    }
    await tx.db
      .updateTable('api_tokens')
      .set({ enabled: enabled ? 1 : 0 })
      .where('id', '=', id)
      .execute();
    return (await getTokenInfo(tx, id, now))!;
  });
}

/** Accepted again (unless expired or invalidated). Idempotent. */
export function activateToken(
  store: AppStore,
  id: number,
  scope: TokenScope = {},
  now: Clock = systemClock,
): Promise<ApiTokenInfo> {
  return setEnabled(store, id, true, scope, now);
}

/** Refused from the next request on; other tokens unaffected. Idempotent. */
export function deactivateToken(
  store: AppStore,
  id: number,
  scope: TokenScope = {},
  now: Clock = systemClock,
): Promise<ApiTokenInfo> {
  return setEnabled(store, id, false, scope, now);
}
