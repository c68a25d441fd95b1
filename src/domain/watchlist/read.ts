// Reading an account's watchlist (app.db `watchlist`, migration 0007).
import type { Sqlite } from '../../storage/sqlite.ts';

/** The account's watched CNPJs (14 characters), in CNPJ order. */
export function watchedCnpjs(app: Sqlite, accountId: number): string[] {
  return app
    .prepare('SELECT cnpj FROM watchlist WHERE account_id = ? ORDER BY cnpj')
    .pluck()
    .all(accountId) as string[];
}
