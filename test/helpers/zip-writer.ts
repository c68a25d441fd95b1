// Zips for the reader's tests and the parse benchmark, built in memory by the product's one
// ZipWriter: stored or deflated members, data descriptors, forced ZIP64, an archive comment.
import fs from 'node:fs';
import { ZipWriter, type MemberOptions } from '../../src/demo/zip-writer.ts';

export interface ZipEntryInput extends MemberOptions {
  name: string;
  data: Buffer | string;
}

export interface BuildZipOptions {
  /** Force ZIP64 structures (extra fields, EOCD64 record + locator) even for small data. */
  zip64?: boolean;
  comment?: string;
}

export function buildZip(entries: ZipEntryInput[], opts: BuildZipOptions = {}): Buffer {
  const w = ZipWriter.inMemory({ forceZip64: opts.zip64, comment: opts.comment });
  for (const { name, data, ...member } of entries) w.addMember(name, data, member);
  w.close();
  return w.contents();
}

export function writeZip(file: string, entries: ZipEntryInput[], opts?: BuildZipOptions): void {
  fs.writeFileSync(file, buildZip(entries, opts));
}
