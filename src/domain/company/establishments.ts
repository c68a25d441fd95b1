// A company's establishments, paged (GET /api/v1/brazilian_companies/{cnpj}/establishments):
// every establishment of the CNPJ's root (its first 8 characters), the head office first, then
// the others in CNPJ order. Keyset paging on the establishments' cnpj index: a page resumes after
// the last CNPJ given, so page 1,000 costs what page 1 costs. The cursor (domain/cursor.ts) is
// bound to the root, so any CNPJ of the company continues it, and carries the head office's CNPJ
// once it was given, so later pages skip it without looking for it again.
import { decodeCursor, encodeCursor } from '../cursor.ts';
import type { OpenSnapshot } from '../registry/reader.ts';
import { mapCompany, type MAPPED_COLUMNS } from './map.ts';
import type { EstablishmentsPage } from './list-schema.ts';
import type { ContatoExtra } from './schema.ts';

/** Where a page resumes: after the CNPJ `last`; `headOffice` was given on the first page. */
export interface EstablishmentsAfter {
  last: string;
  headOffice: string | null;
}

const scope = (root: string) => `establishments:${root}`;
const CNPJ = /^[0-9A-Z]{12}[0-9]{2}$/;

/** The root of a normalised CNPJ. */
export const rootOf = (cnpj: string) => cnpj.slice(0, 8);

/** The cursor resuming the listing of `root` after `last`, the head office already given. */
export function establishmentsCursor(root: string, last: string, headOffice: string | null): string {
  return encodeCursor(scope(root), `${last}${headOffice ?? ''}`);
}

/**
 * The position a cursor of this company's listing resumes at; null when it is not one (garbage,
 * edited, another endpoint's or another company's): 400 naming cursor, before any call counts.
 */
export function readEstablishmentsCursor(cnpj: string, cursor: string): EstablishmentsAfter | null {
  const root = rootOf(cnpj);
  const key = decodeCursor(scope(root), cursor);
  if (key === null || (key.length !== 14 && key.length !== 28)) return null;
  const last = key.slice(0, 14);
  const headOffice = key.length === 28 ? key.slice(14) : null;
  for (const c of [last, headOffice]) if (c !== null && !(CNPJ.test(c) && c.startsWith(root))) return null;
  return { last, headOffice };
}

/**
 * One page of the listing of `cnpj`'s root; null when `cnpj` itself has no establishment (404,
 * counted like a lookup). `limit` is 1–100 (checked by the caller).
 */
export function establishmentsPage(
  snap: OpenSnapshot<typeof MAPPED_COLUMNS>,
  contacts: (cnpj: string) => readonly ContatoExtra[],
  cnpj: string,
  limit: number,
  after: EstablishmentsAfter | null,
): EstablishmentsPage | null {
  const rows = snap.root;
  if (!rows.has(cnpj)) return null;
  const root = rootOf(cnpj);
  // One row more than the page: whether there is a next page, without a count.
  let page;
  let headOffice: string | null;
  if (after === null) {
    const head = rows.headOffice(root);
    headOffice = head?.cnpj ?? null;
    page = rows.after(root, root, headOffice, head === null ? limit + 1 : limit);
    if (head !== null) page.unshift(head);
  } else {
    headOffice = after.headOffice;
    // A first page that ended on the head office resumes at the start of the root.
    page = rows.after(root, after.last === headOffice ? root : after.last, headOffice, limit + 1);
  }
  let next_cursor: string | null = null;
  if (page.length > limit) {
    page.length = limit;
    next_cursor = establishmentsCursor(root, page[limit - 1]!.cnpj!, headOffice);
  }
  // The company object of the lookup, rule for rule (map.ts): partners are not part of it.
  const base = rows.base(root);
  const data = page.map(
    (establishment) =>
      mapCompany({ establishment, ...base, partners: [] }, snap.codeTables, contacts(establishment.cnpj ?? '')).company,
  );
  return { data, next_cursor };
}
