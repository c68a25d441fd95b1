// Extra contacts (contatos_extras): operator data loaded from a CSV
// `cnpj,tipo_contato,tipo_website,contato`, kept in the app state across registry imports.
// The whole file is parsed and validated before the database is touched, so a bad line
// changes nothing and the write lock is held only for the final, short transaction.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Statement } from 'better-sqlite3';
import { normalizeCnpj } from '../cnpj.ts';
// The contact's type is the API response's contatos_extras item: one schema for both.
import type { ContatoExtra } from '../company/schema.ts';
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { AccountsError } from './errors.ts';

export type ContactsLoadMode =
  /** The file becomes the whole set: contacts of CNPJs absent from it are removed. */
  | 'replace'
  /** Only the CNPJs present in the file get their contacts replaced; others are kept. */
  | 'per-cnpj';

export interface ContactsLoadResult {
  mode: ContactsLoadMode;
  rows: number;
  cnpjs: number;
  duplicatesSkipped: number;
  /** Rows in the table before and after. */
  before: number;
  after: number;
}

const HEADER = ['cnpj', 'tipo_contato', 'tipo_website', 'contato'];
const MAX_FIELD = 2000;

function bad(line: number, what: string): AccountsError {
  return new AccountsError('invalid_csv', `Line ${line} of the contacts CSV: ${what}.`);
}

/** Parses and validates; throws AccountsError('invalid_csv') naming the first bad line. */
export async function parseContactsCsv(
  input: string | Buffer | NodeJS.ReadableStream,
): Promise<{ cnpj: string; contact: ContatoExtra }[]> {
  const source = typeof input === 'string' || Buffer.isBuffer(input) ? Readable.from([input]) : input;
  const parser = source.pipe(
    parse({
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      max_record_size: 64 * 1024,
    }),
  );
  const out: { cnpj: string; contact: ContatoExtra }[] = [];
  let first = true;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (first) {
        first = false;
        if (record[0]?.toLowerCase() === 'cnpj') {
          if (record.map((f) => f.toLowerCase()).join(',') !== HEADER.join(',')) {
            throw bad(line, `the header must be exactly "${HEADER.join(',')}"`);
          }
          continue;
        }
      }
      if (record.length !== 4) throw bad(line, `expected 4 columns (${HEADER.join(',')}), found ${record.length}`);
      const [rawCnpj, tipoContato, tipoWebsite, contato] = record;
      const cnpj = normalizeCnpj(rawCnpj);
      if (!cnpj) throw bad(line, `invalid CNPJ "${rawCnpj.slice(0, 40)}"`);
      if (!tipoContato) throw bad(line, 'empty tipo_contato');
      if (!contato) throw bad(line, 'empty contato');
      if ([tipoContato, tipoWebsite, contato].some((f) => f.length > MAX_FIELD))
        throw bad(line, `a field longer than ${MAX_FIELD} characters`);
      // Lowercased because 'website' drives has_website (docs/api-response.md).
      out.push({ cnpj, contact: { tipo_contato: tipoContato.toLowerCase(), tipo_website: tipoWebsite, contato } });
    }
  } catch (err) {
    if (err instanceof AccountsError) throw err;
    const e = err as Error & { lines?: number };
    throw new AccountsError('invalid_csv', `Line ${e.lines ?? '?'} of the contacts CSV: ${e.message}.`);
  }
  return out;
}

// Rows per INSERT: 4 parameters each, well under SQLite's 32766 and PostgreSQL's 65535.
const INSERT_CHUNK = 1000;

async function countContacts(app: AppStore): Promise<number> {
  const { n } = await app.db
    .selectFrom('extra_contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Loads a parsed set in one transaction. */
export async function storeContacts(
  app: AppStore,
  rows: { cnpj: string; contact: ContatoExtra }[],
  mode: ContactsLoadMode = 'replace',
): Promise<ContactsLoadResult> {
  if (mode !== 'replace' && mode !== 'per-cnpj')
    throw new AccountsError('invalid_input', 'The mode must be replace or per-cnpj.');
  const seen = new Set<string>();
  const unique = rows.filter(({ cnpj, contact: c }) => {
    const key = JSON.stringify([cnpj, c.tipo_contato, c.tipo_website, c.contato]);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const cnpjs = new Set(unique.map((r) => r.cnpj));
  return writeTransaction(app, async (tx): Promise<ContactsLoadResult> => {
    // Two loads at once on two nodes: one after the other, as on one app.db.
    await lockFor(tx, 'extra_contacts');
    const before = await countContacts(tx);
    if (mode === 'replace') await tx.db.deleteFrom('extra_contacts').execute();
    else {
      const list = [...cnpjs];
      for (let i = 0; i < list.length; i += INSERT_CHUNK)
        await tx.db
          .deleteFrom('extra_contacts')
          .where('cnpj', 'in', list.slice(i, i + INSERT_CHUNK))
          .execute();
    }
    // In file order: ids keep it, and contactsFor() lists by id.
    for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
      await tx.db
        .insertInto('extra_contacts')
        .values(
          unique.slice(i, i + INSERT_CHUNK).map(({ cnpj, contact: c }) => ({
            cnpj,
            tipo_contato: c.tipo_contato,
            tipo_website: c.tipo_website,
            contato: c.contato,
          })),
        )
        .execute();
    }
    return {
      mode,
      rows: unique.length,
      cnpjs: cnpjs.size,
      duplicatesSkipped: rows.length - unique.length,
      before,
      after: await countContacts(tx),
    };
  });
}

export async function loadContactsFile(
  app: AppStore,
  file: string,
  mode: ContactsLoadMode = 'replace',
): Promise<ContactsLoadResult> {
  let stream: fs.ReadStream;
  try {
    await fs.promises.access(file, fs.constants.R_OK);
    stream = fs.createReadStream(file);
  } catch {
    throw new AccountsError('not_found', `Cannot read the file ${file}.`);
  }
  return storeContacts(app, await parseContactsCsv(stream), mode);
}

/** Contacts of one CNPJ (bare 14 chars), in file order; [] when none; on either backend. */
export async function storedContactsFor(app: AppStore, cnpj: string): Promise<ContatoExtra[]> {
  return app.db
    .selectFrom('extra_contacts')
    .select(['tipo_contato', 'tipo_website', 'contato'])
    .where('cnpj', '=', cnpj)
    .orderBy('id')
    .execute();
}

const stmts = new WeakMap<Sqlite, Statement<[string], ContatoExtra>>();

/**
 * Contacts of one CNPJ (bare 14 chars), in file order; [] when none. Used per API lookup by
 * ContactsCache, synchronously on app.db (storedContactsFor() reads either backend).
 */
export function contactsFor(sqlite: Sqlite, cnpj: string): ContatoExtra[] {
  let st = stmts.get(sqlite);
  if (!st) {
    st = sqlite.prepare('SELECT tipo_contato, tipo_website, contato FROM extra_contacts WHERE cnpj = ? ORDER BY id');
    stmts.set(sqlite, st);
  }
  return st.all(cnpj);
}

/**
 * Above this many rows the contacts stay on disk and each lookup reads its own: the copy is
 * reloaded whole when contacts change, ~2 µs a row (≈ 40 ms at this size, once per change).
 */
const CACHE_MAX_ROWS = 20_000;
const NONE: readonly ContatoExtra[] = Object.freeze([]);

/**
 * The extra contacts held in memory for the API, reloaded whenever app.db's contacts_epoch moved
 * (its triggers cover extra_contacts). The epoch comes from the caller (the API's count has just
 * read it), so a lookup costs no read transaction of its own.
 */
export class ContactsCache {
  private byCnpj: Map<string, readonly ContatoExtra[]> | null = null;
  private loadedEpoch = Number.NaN;

  constructor(
    private readonly sqlite: Sqlite,
    private readonly epoch: () => number,
    private readonly maxRows = CACHE_MAX_ROWS,
  ) {}

  get(cnpj: string): readonly ContatoExtra[] {
    const e = this.epoch();
    if (e !== this.loadedEpoch) this.reload(e);
    return this.byCnpj === null ? contactsFor(this.sqlite, cnpj) : (this.byCnpj.get(cnpj) ?? NONE);
  }

  private reload(epoch: number): void {
    this.loadedEpoch = epoch;
    const n = (this.sqlite.prepare('SELECT count(*) AS n FROM extra_contacts').get() as { n: number }).n;
    if (n > this.maxRows) {
      this.byCnpj = null;
      return;
    }
    const rows = this.sqlite
      .prepare('SELECT cnpj, tipo_contato, tipo_website, contato FROM extra_contacts ORDER BY id')
      .raw()
      .all() as [string, string, string, string][];
    this.byCnpj = contactsByCnpj(rows);
  }
}

/**
 * The API's in-memory contacts copy from (cnpj, tipo_contato, tipo_website, contato) rows in file
 * order: each CNPJ's list, shared by every lookup of it, so frozen (no caller can change another's
 * answer). Both backends' caches build it here.
 */
export function contactsByCnpj(rows: Iterable<readonly [string, string, string, string]>): Map<string, ContatoExtra[]> {
  const map = new Map<string, ContatoExtra[]>();
  for (const [cnpj, tipo_contato, tipo_website, contato] of rows) {
    const c: ContatoExtra = Object.freeze({ tipo_contato, tipo_website, contato });
    const list = map.get(cnpj);
    if (list) list.push(c);
    else map.set(cnpj, [c]);
  }
  for (const list of map.values()) Object.freeze(list);
  return map;
}
