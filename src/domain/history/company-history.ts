// A company's history (GET /api/v1/brazilian_companies/{cnpj}/history): its recorded changes and
// its company's, as feed items.
import type { ChangeRow } from '../../storage/history/schema.ts';
import { changeItem, type ChangeItem } from './item.ts';

/** Every recorded change of a CNPJ and of its company, newest month first, by campo within a month. */
export function historyItems(rows: readonly ChangeRow[], cnpj: string): (ChangeItem & { month: string })[] {
  return [...rows]
    .sort((a, b) =>
      a.month !== b.month ? (a.month > b.month ? -1 : 1) : a.campo < b.campo ? -1 : a.campo > b.campo ? 1 : 0,
    )
    .map((r) => ({ month: r.month, ...changeItem(r, cnpj) }));
}
