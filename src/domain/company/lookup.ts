// The company lookup: the registry's rows for one CNPJ, through the mapping, with the extra
// contacts the caller supplies (they live in app.db, not in the snapshot). The reader fetches
// exactly the columns the mapping declares (MAPPED_COLUMNS) and knows nothing of the response;
// the mapping knows nothing of SQL.
import { RegistryReader, type OpenSnapshot, type ReaderOptions, type RegistryInfo } from '../registry/reader.ts';
import { establishmentsPage, type EstablishmentsAfter } from './establishments.ts';
import type { EstablishmentsPage } from './list-schema.ts';
import { MAPPED_COLUMNS, mapCompany } from './map.ts';
import type { Company, CompanyResponse, ContatoExtra } from './schema.ts';

export interface CompanyRegistryOptions extends Omit<ReaderOptions<typeof MAPPED_COLUMNS>, 'columns'> {
  /**
   * The extra contacts of a CNPJ. The server reads them through the API's own app.db connection
   * (a memory copy keyed on its contacts_epoch): the one that counts calls keeps its page cache
   * across its own commits, while any other connection has to revalidate it after each of them.
   */
  contacts: (cnpj: string) => readonly ContatoExtra[];
}

/** The registry as the API sees it: lookups answered in the response's shape. */
export class CompanyRegistry {
  private readonly reader: RegistryReader<typeof MAPPED_COLUMNS>;
  private readonly contacts: (cnpj: string) => readonly ContatoExtra[];

  constructor(opts: CompanyRegistryOptions) {
    this.contacts = opts.contacts;
    this.reader = new RegistryReader({ ...opts, columns: MAPPED_COLUMNS });
  }
  /** Checks the active-snapshot pointer now; true when a new snapshot was swapped in. */
  refresh(): boolean {
    return this.reader.refresh();
  }

  /** Registry loaded? (503 registry_unavailable otherwise) */
  get available(): boolean {
    return this.reader.available;
  }

  get info(): RegistryInfo | null {
    return this.reader.info;
  }

  /** The snapshot being served (for domain/search's searchOf); read it synchronously, do not keep it. */
  get snapshot(): OpenSnapshot<typeof MAPPED_COLUMNS> | null {
    return this.reader.snapshot;
  }

  /** The response for a normalised 14-character CNPJ, null when absent or no registry. */
  lookup(cnpj: string): CompanyResponse | null {
    const snap = this.reader.snapshot;
    if (snap === null) return null;
    const rows = snap.rows(cnpj);
    return rows === null ? null : mapCompany(rows, snap.codeTables, this.contacts(cnpj));
  }

  /** The company objects of `cnpjs` in `snap`: a search's page, read from the snapshot the search read. */
  companies(snap: OpenSnapshot<typeof MAPPED_COLUMNS>, cnpjs: readonly string[]): Company[] {
    const out: Company[] = [];
    for (const cnpj of cnpjs) {
      const rows = snap.rows(cnpj);
      if (rows !== null) out.push(mapCompany(rows, snap.codeTables, this.contacts(cnpj)).company);
    }
    return out;
  }

  /**
   * A page of the establishments of `cnpj`'s root (see establishments.ts), resuming at `after`;
   * null when `cnpj` is absent or no registry is served.
   */
  establishments(cnpj: string, limit: number, after: EstablishmentsAfter | null): EstablishmentsPage | null {
    const snap = this.reader.snapshot;
    return snap === null ? null : establishmentsPage(snap, this.contacts, cnpj, limit, after);
  }

  close(): void {
    this.reader.close();
  }
}
