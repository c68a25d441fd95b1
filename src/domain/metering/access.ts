// What the routes use to admit and count API calls, whichever backend keeps the counts: one
// interface, always asynchronous (the shared PostgreSQL of a fleet answers over the network; app.db
// answers at once, in a settled promise). Meter (meter.ts) is its one implementation.
import type { AccessDenied, AccessIdentity, AccessResult } from './result.ts';

export * from './result.ts';

export interface AccessLayer {
  /** The token decided on fresh records. */
  identify(token: string | undefined | null): Promise<AccessIdentity | AccessDenied>;
  /** The hot path's check: a token in memory is granted at once, and decided again when counted. */
  identifyForCount(token: string | undefined | null): Promise<AccessIdentity | AccessDenied>;
  /** identify() plus this month's usage: the quota state of an answer that counts no call. */
  authenticate(token: string | undefined | null): Promise<AccessResult>;
  /** An account's own access (the web app's Consulta page, which has no token). */
  identifyAccount(accountId: number): Promise<AccessIdentity | AccessDenied>;
  /** Counts `calls` (default 1) of a granted access, all or nothing, durably before it settles. */
  charge(id: AccessIdentity, calls?: number): Promise<AccessResult>;
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
