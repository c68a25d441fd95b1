// What the routes use to admit and count API calls, whichever backend keeps the counts: app.db
// (ApiAccess, domain/accounts/api-access.ts) or the shared PostgreSQL of a fleet (PgApiAccess,
// api-access-postgres.ts). Both decide with decision.ts and cache tokens with token-cache.ts.
import type { AccessDenied, AccessIdentity, AccessResult } from './result.ts';

export * from './result.ts';

/** A value now, or later (the PostgreSQL access reads the database where SQLite's reads in process). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A method may answer at once or with a promise: callers on the hot path test for a promise instead
 * of awaiting, so the SQLite path stays synchronous.
 */
export interface AccessLayer {
  identify(token: string | undefined | null): MaybePromise<AccessIdentity | AccessDenied>;
  identifyForCount(token: string | undefined | null): MaybePromise<AccessIdentity | AccessDenied>;
  authenticate(token: string | undefined | null): MaybePromise<AccessResult>;
  identifyAccount(accountId: number): MaybePromise<AccessIdentity | AccessDenied>;
  consume(id: AccessIdentity, calls?: number): MaybePromise<AccessResult>;
  consumeGrouped(id: AccessIdentity, calls?: number): Promise<AccessResult>;
  readonly contactsEpoch: number;
}

/**
 * The tokenId of an identity made from an account (the web app's Consulta page, which has no
 * token): real token ids start at 1. Its calls count in the account's month and the account's
 * own day (usage_daily_web), no token's day.
 */
export const NO_TOKEN = 0;

/** A call to count: the access, and how many calls it uses when more than one (a batch). */
export type Charge = AccessIdentity & { readonly calls?: number };

/** The calls of a batch as a Charge; a single call is the identity itself (no copy on the hot path). */
export function charge(id: AccessIdentity, calls: number): Charge {
  if (!Number.isInteger(calls) || calls < 1) throw new RangeError(`calls must be a positive integer, got ${calls}`);
  return calls === 1 ? id : { ...id, calls };
}
