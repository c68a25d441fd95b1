// Domain errors carry a stable code, one English sentence for the operator (CLI, logs) and,
// when a page can meet them, a reason the web app turns into its own Portuguese sentence
// (src/server/web/accounts-messages.ts): customers never see the operator's wording.
export type AccountsErrorCode =
  'invalid_input' | 'not_found' | 'already_exists' | 'invalid_state' | 'invalid_csv' | 'last_billing_admin';

/** The errors a web page can meet, finer than the code. */
export type AccountsReason =
  | 'token_name'
  | 'expiry_days'
  | 'expiry_past'
  | 'expiry_too_far'
  | 'expiry_unrecognised'
  | 'account_suspended'
  | 'token_not_found'
  | 'token_invalidated';

export class AccountsError extends Error {
  constructor(
    readonly code: AccountsErrorCode,
    message: string,
    readonly reason?: AccountsReason,
  ) {
    super(message);
    this.name = 'AccountsError';
  }
}

/** Maps a SQLite constraint failure on a unique column to a readable error, else rethrows. */
export function rethrowUnique(err: unknown, message: string): never {
  const e = err as { code?: string };
  if (e && (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
    throw new AccountsError('already_exists', message);
  }
  throw err;
}
