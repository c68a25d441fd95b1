// A page of an account's watchlist, keyset-paged by CNPJ on the table's primary key (account_id,
// cnpj): each page is one range read, and a CNPJ added or removed between two pages never makes
// another one be skipped or shown twice (the cursor is the last CNPJ shown, not an offset).
import type { AppStore } from '../../storage/app/store.ts';
import { isValidCnpj } from '../cnpj.ts';
import { decodeCursor, encodeCursor } from '../cursor.ts';
import type { Watched } from './add.ts';

/** Cursors are bound to the watchlist listing (another listing's cursor is refused). */
const SCOPE = 'watchlist';

export interface WatchedPage {
  data: Watched[];
  next_cursor: string | null;
}

/** The CNPJ a cursor resumes after, or null when it is not a cursor of this listing. */
export function readWatchlistCursor(cursor: string): string | null {
  const key = decodeCursor(SCOPE, cursor);
  return key !== null && isValidCnpj(key) ? key : null;
}

export const watchlistCursor = (lastCnpj: string): string => encodeCursor(SCOPE, lastCnpj);

/** Up to `limit` watched CNPJs after `after` (from the start: null), in CNPJ order. */
export async function watchedPage(
  store: AppStore,
  accountId: number,
  limit: number,
  after: string | null,
): Promise<WatchedPage> {
  const rows: Watched[] = await store.db
    .selectFrom('watchlist')
    .select(['cnpj', 'added_at'])
    .where('account_id', '=', accountId)
    .where('cnpj', '>', after ?? '')
    .orderBy('cnpj')
    .limit(limit + 1)
    .execute();
  // One row more than the page says whether a next page exists: no empty last page.
  const more = rows.length > limit;
  const data = more ? rows.slice(0, limit) : rows;
  return { data, next_cursor: more ? watchlistCursor(data[data.length - 1]!.cnpj) : null };
}
