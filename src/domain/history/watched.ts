// The changes of one month that touch a set of CNPJs (a watchlist): each CNPJ's own changes and
// its company's (recorded once under the 8-character base, shown under each watched CNPJ of that
// company). Two index reads per CNPJ on changes_by_cnpj: cost follows the list, not the month.
import { changesOfKeyInMonth } from '../../storage/history/db.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { changeItem, type ChangeItem } from './item.ts';

/** In the order of `cnpjs` (give them sorted for a stable order), each CNPJ's own rows first. */
export function watchedChanges(history: Sqlite, month: string, cnpjs: Iterable<string>): ChangeItem[] {
  const out: ChangeItem[] = [];
  for (const cnpj of cnpjs) {
    for (const row of changesOfKeyInMonth(history, cnpj, month)) out.push(changeItem(row));
    for (const row of changesOfKeyInMonth(history, cnpj.slice(0, 8), month)) out.push(changeItem(row, cnpj));
  }
  return out;
}
