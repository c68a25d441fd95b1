// Domain errors carry a stable code (for the web app and tests) and one Portuguese sentence
// that can be shown as is, in the web app or on the CLI.
export type AccountsErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'already_exists'
  | 'invalid_state'
  | 'invalid_csv';

export class AccountsError extends Error {
  constructor(
    readonly code: AccountsErrorCode,
    message: string,
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
