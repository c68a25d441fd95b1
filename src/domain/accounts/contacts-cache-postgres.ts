// The extra contacts held in memory for the API on the shared PostgreSQL (fleet mode): ContactsCache's
// twin. The copy is reloaded whole when contacts_epoch moved; the epoch comes from the API's count
// (count_calls() returns it), which awaits sync() before answering its calls, so a lookup reads
// the copy of the epoch its own count saw, synchronously and without a query of its own. Unlike
// app.db's copy, there is no per-lookup read above a size: a lookup cannot wait on the network.
import type pg from 'pg';
import type { ContatoExtra } from '../company/schema.ts';
import { contactsByCnpj } from './contacts.ts';

const NONE: readonly ContatoExtra[] = Object.freeze([]);

export class PgContactsCache {
  private byCnpj = new Map<string, readonly ContatoExtra[]>();
  private loadedEpoch = Number.NaN;
  private loading: Promise<void> | null = null;

  constructor(private readonly pool: pg.Pool) {}

  get(cnpj: string): readonly ContatoExtra[] {
    return this.byCnpj.get(cnpj) ?? NONE;
  }

  /** Reloads the copy when `epoch` is not the one it holds; nothing to wait for otherwise. */
  sync(epoch: number): void | Promise<void> {
    if (epoch === this.loadedEpoch) return;
    this.loading ??= this.reload().finally(() => (this.loading = null));
    return this.loading;
  }

  private async reload(): Promise<void> {
    // The epoch and the rows in one statement: the copy is exactly the epoch's.
    const { rows } = await this.pool.query<{ epoch: number; rows: [string, string, string, string][] | null }>(
      `SELECT (SELECT n FROM contacts_epoch WHERE id = 1) AS epoch,
              (SELECT json_agg(json_build_array(cnpj, tipo_contato, tipo_website, contato) ORDER BY id) FROM extra_contacts) AS rows`,
    );
    this.byCnpj = contactsByCnpj(rows[0].rows ?? []);
    this.loadedEpoch = rows[0].epoch;
  }
}
