// The changes of one month that touch a set of CNPJs (a watchlist): each CNPJ's own changes and
// its company's (recorded once under the 8-character base, shown under each watched CNPJ of that
// company). One statement for the whole list (storage/history/watched.ts): two primary-key probes
// per CNPJ, so the cost follows the list, not the month.
import { changesOfListInMonth } from '../../storage/history/watched.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { changeItem, type ChangeItem } from './item.ts';

/** In the order of `cnpjs` (give them sorted for a stable order), each CNPJ's own rows first. */
export function watchedChanges(history: Sqlite, month: string, cnpjs: Iterable<string>): ChangeItem[] {
  // LIMIT -1: no limit.
  return changesOfListInMonth(history, month, [...cnpjs], -1).map((r) => changeItem(r, r.shown));
}
