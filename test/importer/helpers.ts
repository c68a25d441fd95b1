// Test helpers for the importer: temp data dirs, hand-made Receita zips, reading snapshots back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { ZipWriter } from '../../src/demo/zip-writer.ts';
import { listZip, openMemberStream } from '../../importer/read/zip.ts';
import { openAppDb } from '../../src/storage/app/sqlite.ts';
import { activeSnapshot, type SnapshotInfo } from '../../src/storage/snapshots/records.ts';
import { openSqlite } from '../../src/storage/sqlite.ts';
import { RECEITA_MINI } from '../fixtures/index.ts';

const made: string[] = [];
// Every temp dir of the test file is removed when the file's tests are done, whatever they did.
after(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'cnpj-test-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Writes a one-member zip whose member text is encoded as Latin-1, like the Receita files. */
export function writeZip(file: string, member: string, text: string): string {
  const w = new ZipWriter(file);
  w.addText(member, text);
  w.close();
  return file;
}

/** A quoted `;` record, the Receita way. */
export function rec(...fields: string[]): string {
  return fields.map((f) => `"${f}"`).join(';') + '\n';
}

/**
 * An Estabelecimentos record (30 fields), the Receita way: an active head office in São Paulo
 * (município 7107, CEP 01001000) with a phone and an e-mail; `o` replaces fields by position.
 */
export function estabelecimento(
  base: string,
  order: string,
  dv: string,
  o: Partial<Record<number, string>> = {},
): string {
  const f = [
    base,
    order,
    dv,
    '1',
    'FANTASIA',
    '02',
    '20200101',
    '00',
    '',
    '',
    '20200101',
    '6204000',
    '',
    'RUA',
    'A',
    '1',
    '',
    'CENTRO',
    '01001000',
    'SP',
    '7107',
    '11',
    '999999999',
    '',
    '',
    '',
    '',
    'a@B.com',
    '',
    '',
  ];
  for (const [i, v] of Object.entries(o)) f[+i] = v!;
  return rec(...f);
}

/** Copies the real sample folder (so tests can add or damage files). */
export function copySamples(dest: string): string {
  fs.mkdirSync(dest, { recursive: true });
  for (const f of fs.readdirSync(RECEITA_MINI))
    if (f.endsWith('.zip')) fs.copyFileSync(path.join(RECEITA_MINI, f), path.join(dest, f));
  return dest;
}

export function querySnapshot<T>(
  dir: string,
  file: 'establishments.db' | 'companies.db',
  sql: string,
  ...params: unknown[]
): T[] {
  const db = openSqlite(path.join(dir, file), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The data dir's active snapshot, as `status` sees it. */
export async function active(dataDir: string): Promise<SnapshotInfo | null> {
  const app = await openAppDb(dataDir);
  try {
    return activeSnapshot(app.sqlite, path.join(dataDir, 'registry'));
  } finally {
    await app.close();
  }
}

/** The mainframe member name the Receita gives each of its zips (docs/receita-dump.md §2); `d` is `D60913`'s digits. */
export function receitaMemberName(zip: string, d: string): string | null {
  const shard = /^(Empresas|Estabelecimentos|Socios)(\d+)\.zip$/.exec(zip);
  if (shard)
    return `K3241.K03200Y${shard[2]}.D${d}.${{ Empresas: 'EMPRECSV', Estabelecimentos: 'ESTABELE', Socios: 'SOCIOCSV' }[shard[1]]}`;
  if (zip === 'Simples.zip') return `F.K03200$W.SIMPLES.CSV.D${d}`;
  const tag = {
    Cnaes: 'CNAECSV',
    Motivos: 'MOTICSV',
    Municipios: 'MUNICCSV',
    Naturezas: 'NATJUCSV',
    Paises: 'PAISCSV',
    Qualificacoes: 'QUALSCSV',
  }[zip.replace(/\.zip$/, '')];
  return tag ? `F.K03200$Z.D${d}.${tag}` : null;
}

export interface ReceitaMonthOptions {
  /** The extraction date's digits in the member names (`60913` → 2026-09-13); per zip when a function. */
  date?: string | ((zip: string) => string);
  /** Rewrites a member name (e.g. lower case). */
  name?: (member: string) => string;
  /** Rewrites a member's bytes (Latin-1 as read). */
  edit?: (zip: string, bytes: Buffer) => Buffer;
}

/**
 * The real sample month written the way the Receita writes it: the same zips and Latin-1 bytes,
 * members under their mainframe names with an extraction date. The regime zips are copied as they are.
 */
export async function receitaMonth(dest: string, opts: ReceitaMonthOptions = {}): Promise<string> {
  fs.mkdirSync(dest, { recursive: true });
  for (const zip of fs.readdirSync(RECEITA_MINI).filter((f) => f.endsWith('.zip'))) {
    const from = path.join(RECEITA_MINI, zip);
    const d = typeof opts.date === 'function' ? opts.date(zip) : (opts.date ?? '60913');
    const member = receitaMemberName(zip, d);
    if (member === null) {
      fs.copyFileSync(from, path.join(dest, zip));
      continue;
    }
    const [only] = await listZip(from);
    const chunks: Buffer[] = [];
    for await (const c of openMemberStream(from, only)) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    const w = new ZipWriter(path.join(dest, zip));
    w.addMember(opts.name ? opts.name(member) : member, opts.edit ? opts.edit(zip, bytes) : bytes);
    w.close();
  }
  return dest;
}
