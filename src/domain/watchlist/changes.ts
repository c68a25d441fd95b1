// A month's changes for an account's watchlist, as the web page shows them: the first `limit`
// (in CNPJ order, each CNPJ's own changes before its company's) and how many there are in all.
// The same items as watchedChanges (domain/history/watched.ts), bounded: a list at the top plan's
// limit (50,000) stays a page view's cost.
import { changesOfListInMonth, countOfListInMonth } from '../../storage/history/watched.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { changeItem, type ChangeItem } from '../history/item.ts';

export interface ListChanges {
  items: ChangeItem[];
  total: number;
}

/** `cnpjs` in the order to show them (CNPJ order, as watchedCnpjs gives them). */
export function watchlistChanges(history: Sqlite, month: string, cnpjs: readonly string[], limit: number): ListChanges {
  if (cnpjs.length === 0) return { items: [], total: 0 };
  const rows = changesOfListInMonth(history, month, cnpjs, limit);
  const items = rows.map((r) => changeItem(r, r.shown));
  // A short page is the whole answer: no second pass.
  const total = rows.length < limit ? rows.length : countOfListInMonth(history, month, cnpjs);
  return { items, total };
}
