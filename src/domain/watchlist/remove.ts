// Removing a CNPJ from an account's watchlist.
import type { Sqlite } from '../../storage/sqlite.ts';

/** True when it was watched (and is no more), false when it was not. */
export function removeWatched(app: Sqlite, accountId: number, cnpj: string): boolean {
  return app.prepare('DELETE FROM watchlist WHERE account_id = ? AND cnpj = ?').run(accountId, cnpj).changes === 1;
}
