// The extra contacts the lookups show, held in memory and brought to the store's contacts_epoch
// (its triggers cover extra_contacts) by the metering after each count: a lookup follows its
// count, so it reads the copy of the epoch its count saw, synchronously and without a read of its
// own. Where the store can read one CNPJ's rows locally (app.db), a copy past `maxRows` is not
// held and each lookup reads its own; on the fleet's PostgreSQL the copy is held whatever its size.
import type { ContactRow, ContactsStore } from '../../storage/app/metering.ts';
import type { ContatoExtra } from './schema.ts';

/**
 * Above this many rows (app.db) the contacts stay on disk and each lookup reads its own: the copy
 * is reloaded whole when contacts change, at a cost per row (docs/benchmarks.md).
 */
const COPY_MAX_ROWS = 20_000;
const NONE: readonly ContatoExtra[] = Object.freeze([]);

export class ContactsCopy {
  /** Null: too many rows to hold, read per lookup. */
  private byCnpj: Map<string, readonly ContatoExtra[]> | null = new Map();
  private loadedEpoch = Number.NaN;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly store: ContactsStore,
    private readonly maxRows = COPY_MAX_ROWS,
  ) {}

  get(cnpj: string): readonly ContatoExtra[] {
    if (this.byCnpj !== null) return this.byCnpj.get(cnpj) ?? NONE;
    const rows = this.store.lookup?.(cnpj) ?? [];
    return rows.length === 0 ? NONE : Object.freeze(rows.map(contactOf));
  }

  /** Reloads the copy when `epoch` is not the one it holds; nothing to wait for otherwise. */
  sync(epoch: number): void | Promise<void> {
    if (epoch === this.loadedEpoch) return;
    this.loading ??= this.reload().finally(() => (this.loading = null));
    return this.loading;
  }

  private async reload(): Promise<void> {
    const max = this.store.lookup ? this.maxRows : Number.POSITIVE_INFINITY;
    const { epoch, rows } = await this.store.snapshot(max);
    this.byCnpj = rows === null ? null : contactsByCnpj(rows);
    this.loadedEpoch = epoch;
  }
}

/** One row as the answer shows it, frozen: the same object may be in many answers. */
function contactOf([, tipo_contato, tipo_website, contato]: ContactRow): ContatoExtra {
  return Object.freeze({ tipo_contato, tipo_website, contato });
}

/**
 * Each CNPJ's list from rows in file order, shared by every lookup of it, so frozen (no caller can
 * change another's answer).
 */
export function contactsByCnpj(rows: Iterable<ContactRow>): Map<string, ContatoExtra[]> {
  const map = new Map<string, ContatoExtra[]>();
  for (const row of rows) {
    const c = contactOf(row);
    const cnpj = row[0];
    const list = map.get(cnpj);
    if (list) list.push(c);
    else map.set(cnpj, [c]);
  }
  for (const list of map.values()) Object.freeze(list);
  return map;
}
