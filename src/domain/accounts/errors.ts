// Domain errors carry a stable code, one English sentence for the operator (CLI, logs) and,
// when a page can meet them, a reason the web app turns into its own Portuguese sentence
// (src/server/web/accounts-messages.ts): customers never see the operator's wording.
import { isUniqueViolation } from '../../storage/app/store.ts';

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

/** Maps a unique-column violation (either backend) to a readable error, else rethrows. */
export function rethrowUnique(err: unknown, message: string): never {
  if (isUniqueViolation(err)) throw new AccountsError('already_exists', message);
  throw err;
}
