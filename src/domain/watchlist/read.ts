// Reading an account's watchlist (the `watchlist` table, migration 0007).
import type { AppStore } from '../../storage/app/store.ts';

/** The account's watched CNPJs (14 characters), in CNPJ order. */
export async function watchedCnpjs(store: AppStore, accountId: number): Promise<string[]> {
  const rows = await store.db
    .selectFrom('watchlist')
    .select('cnpj')
    .where('account_id', '=', accountId)
    .orderBy('cnpj')
    .execute();
  return rows.map((r) => r.cnpj);
}
