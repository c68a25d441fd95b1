// May this token, or this account, call the API: decided on its records alone (token, account,
// plan), the same way on both backends. A malformed token is refused on its shape and checksum,
// before any read.
import type { AccountRecord, TokenRecord } from '../../storage/app/metering.ts';
import { ERRORS } from '../api-errors.ts';
import { spDay } from './time.ts';
import { isWellFormedToken } from './token-format.ts';
import { NO_TOKEN } from './access.ts';
import { deny, type AccessDenied, type AccessIdentity } from './result.ts';

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

/** An account's own access (no token): refused when it is gone or suspended, or its plan has no API. */
export function decideAccount(
  accountId: number,
  r: Omit<AccountRecord, 'account_id'> | undefined,
): AccessIdentity | AccessDenied {
  if (r === undefined || r.status !== 'active') return deny('account_suspended');
  if (r.api_included !== 1) return deny('plan_without_api', ERRORS.plan_without_api.specific({ plan: r.plan }));
  return { ok: true, accountId, accountName: r.account_name, tokenId: NO_TOKEN, limit: r.monthly_quota };
}
