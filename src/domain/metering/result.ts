// What the API's access checks answer: a call that may go on (who, the plan's limit, and once
// usage is read the quota state), or a denial carrying its code from the API's error table
// (domain/api-errors.ts) with the table's status and sentence.
import { ERRORS, retryAfter } from '../api-errors.ts';
import { spDay } from './time.ts';

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
  /**
   * The auth_epoch this identity was decided under: its count is decided again when the stored
   * epoch has moved since.
   */
  epoch?: number;
}

export interface AccessGranted extends AccessIdentity {
  quota: QuotaState;
}

export interface AccessDenied {
  ok: false;
  error: AccessError;
  status: (typeof ERRORS)[AccessError]['status'];
  /** Portuguese sentence for a person: the table's, or its more specific form. */
  message: string;
  /** Present once the token is known (quota_exceeded always). */
  quota?: QuotaState;
  /** Seconds until the quota resets (quota_exceeded only): the answer's Retry-After. */
  retryAfter?: number;
}

export type AccessResult = AccessGranted | AccessDenied;

/** A denial with the table's status and sentence, or a more specific sentence. */
export function deny(error: AccessError, message: string = ERRORS[error].message): AccessDenied {
  return { ok: false, error, status: ERRORS[error].status, message };
}

/**
 * quota_exceeded: the quota state, the renewal day in the sentence, Retry-After until the reset.
 * `needed`: the calls a batch asked for, named in the sentence when some remain.
 */
export function quotaExceeded(quota: QuotaState, at: Date, needed = 1): AccessDenied {
  const renewsOn = spDay(new Date(quota.reset * 1000));
  const d = deny(
    'quota_exceeded',
    ERRORS.quota_exceeded.specific({ limit: quota.limit, renewsOn, needed, remaining: quota.remaining }),
  );
  d.quota = quota;
  d.retryAfter = retryAfter('quota_exceeded', at, quota.reset);
  return d;
}
