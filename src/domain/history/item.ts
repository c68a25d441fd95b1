// A recorded change as the API shows it (the change feed, a company's history, watchlist
// deliveries and the web app): one shape everywhere, docs/history.md.
import type { ChangeRow, Tipo } from '../../storage/history/schema.ts';

export interface ChangeItem {
  /** Always 14 characters: a company-level change (stored under its 8-character base) is shown under the CNPJ it is read for. */
  cnpj: string;
  tipo: Tipo;
  /** Absent for abertura and encerramento. */
  campo?: string;
  /** The values as the lookup showed them in each month; absent for abertura and encerramento. */
  antes?: unknown;
  depois?: unknown;
}

/** `shownCnpj`: the row's own CNPJ, or for a company-level row the establishment it is read for. */
export function changeItem(row: ChangeRow, shownCnpj: string = row.cnpj): ChangeItem {
  if (row.tipo !== 'alteracao') return { cnpj: shownCnpj, tipo: row.tipo };
  return {
    cnpj: shownCnpj,
    tipo: row.tipo,
    campo: row.campo,
    antes: row.antes === null ? null : JSON.parse(row.antes),
    depois: row.depois === null ? null : JSON.parse(row.depois),
  };
}
