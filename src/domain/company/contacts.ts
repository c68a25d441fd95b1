// Extra contacts (contatos_extras): operator data loaded from a CSV
// `cnpj,tipo_contato,tipo_website,contato`, kept in the app state across registry imports.
// The whole file is parsed and validated before the database is touched, so a bad line
// changes nothing and the write lock is held only for the final, short transaction.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { normalizeCnpj } from '../cnpj.ts';
// The contact's type is the API response's contatos_extras item: one schema for both.
import type { ContatoExtra } from './schema.ts';
import { lockFor, writeTransaction, type AppStore } from '../../storage/app/store.ts';
import { AccountsError } from '../accounts/errors.ts';

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

async function countContacts(store: AppStore): Promise<number> {
  const { n } = await store.db
    .selectFrom('extra_contacts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Loads a parsed set in one transaction. */
export async function storeContacts(
  store: AppStore,
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
  return writeTransaction(store, async (tx): Promise<ContactsLoadResult> => {
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
    // In file order: ids keep it, and the lookups' copy lists by id.
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
  store: AppStore,
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
  return storeContacts(store, await parseContactsCsv(stream), mode);
}

/** Contacts of one CNPJ (bare 14 chars), in file order; [] when none; on either backend. */
export async function storedContactsFor(store: AppStore, cnpj: string): Promise<ContatoExtra[]> {
  return store.db
    .selectFrom('extra_contacts')
    .select(['tipo_contato', 'tipo_website', 'contato'])
    .where('cnpj', '=', cnpj)
    .orderBy('id')
    .execute();
}
