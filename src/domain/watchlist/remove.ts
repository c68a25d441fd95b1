// Removing a CNPJ from an account's watchlist.
import type { AppStore } from '../../storage/app/store.ts';

/** True when it was watched (and is no more), false when it was not. */
export async function removeWatched(store: AppStore, accountId: number, cnpj: string): Promise<boolean> {
  const r = await store.db
    .deleteFrom('watchlist')
    .where('account_id', '=', accountId)
    .where('cnpj', '=', cnpj)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
