// Test helpers for the importer: temp data dirs, hand-made Receita zips, reading snapshots back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { ZipWriter } from '../../src/demo/zip-writer.ts';
import { openAppDb } from '../../src/storage/app-db.ts';
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

/** Copies the real sample folder (so tests can add or damage files). */
export function copySamples(dest: string): string {
  fs.mkdirSync(dest, { recursive: true });
  for (const f of fs.readdirSync(RECEITA_MINI)) if (f.endsWith('.zip')) fs.copyFileSync(path.join(RECEITA_MINI, f), path.join(dest, f));
  return dest;
}

export function querySnapshot<T>(dir: string, file: 'establishments.db' | 'companies.db', sql: string, ...params: unknown[]): T[] {
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
