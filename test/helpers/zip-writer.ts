// Minimal zip writer for tests and benchmarks (stored/deflate, data descriptors, forced ZIP64).
// Deliberately kept outside importer/: production code only reads zips.
import fs from 'node:fs';
import zlib from 'node:zlib';

export interface ZipEntryInput {
  name: string;
  data: Buffer | string;
  method?: 0 | 8;
  /** Write sizes/CRC after the data (general purpose bit 3), as streaming zippers do. */
  dataDescriptor?: boolean;
  level?: number;
}

export interface BuildZipOptions {
  /** Force ZIP64 structures (extra fields, EOCD64 record + locator) even for small data. */
  zip64?: boolean;
  comment?: string;
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(n % 0x100000000, 0);
  b.writeUInt32LE(Math.floor(n / 0x100000000), 4);
  return b;
}

export function buildZip(entries: ZipEntryInput[], opts: BuildZipOptions = {}): Buffer {
  const z64 = !!opts.zip64;
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const push = (b: Buffer) => {
    parts.push(b);
    offset += b.length;
  };
  for (const e of entries) {
    const raw = typeof e.data === 'string' ? Buffer.from(e.data, 'latin1') : e.data;
    const method = e.method ?? 8;
    const comp = method === 8 ? zlib.deflateRawSync(raw, { level: e.level ?? 6 }) : raw;
    const crc = zlib.crc32(raw) >>> 0;
    const name = Buffer.from(e.name, 'utf8');
    const dd = !!e.dataDescriptor;
    const flags = 0x800 | (dd ? 0x8 : 0);
    const localOffset = offset;

    const localExtra = z64 ? Buffer.concat([Buffer.from([1, 0, 16, 0]), u64(dd ? 0 : raw.length), u64(dd ? 0 : comp.length)]) : Buffer.alloc(0);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(z64 ? 45 : 20, 4);
    lh.writeUInt16LE(flags, 6);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt16LE(0, 10);
    lh.writeUInt16LE(0x21, 12);
    lh.writeUInt32LE(dd ? 0 : crc, 14);
    lh.writeUInt32LE(z64 ? 0xffffffff : dd ? 0 : comp.length, 18);
    lh.writeUInt32LE(z64 ? 0xffffffff : dd ? 0 : raw.length, 22);
    lh.writeUInt16LE(name.length, 26);
    lh.writeUInt16LE(localExtra.length, 28);
    push(Buffer.concat([lh, name, localExtra]));
    push(comp);
    if (dd) {
      const d = z64 ? Buffer.alloc(24) : Buffer.alloc(16);
      d.writeUInt32LE(0x08074b50, 0);
      d.writeUInt32LE(crc, 4);
      if (z64) {
        u64(comp.length).copy(d, 8);
        u64(raw.length).copy(d, 16);
      } else {
        d.writeUInt32LE(comp.length, 8);
        d.writeUInt32LE(raw.length, 12);
      }
      push(d);
    }

    const cdExtra = z64
      ? Buffer.concat([Buffer.from([1, 0, 24, 0]), u64(raw.length), u64(comp.length), u64(localOffset)])
      : Buffer.alloc(0);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(z64 ? 45 : 20, 4);
    ch.writeUInt16LE(z64 ? 45 : 20, 6);
    ch.writeUInt16LE(flags, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt16LE(0, 12);
    ch.writeUInt16LE(0x21, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(z64 ? 0xffffffff : comp.length, 20);
    ch.writeUInt32LE(z64 ? 0xffffffff : raw.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt16LE(cdExtra.length, 30);
    ch.writeUInt32LE(z64 ? 0xffffffff : localOffset, 42);
    central.push(Buffer.concat([ch, name, cdExtra]));
  }
  const cdOffset = offset;
  const cd = Buffer.concat(central);
  push(cd);
  if (z64) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    u64(44).copy(rec, 4);
    rec.writeUInt16LE(45, 12);
    rec.writeUInt16LE(45, 14);
    u64(entries.length).copy(rec, 24);
    u64(entries.length).copy(rec, 32);
    u64(cd.length).copy(rec, 40);
    u64(cdOffset).copy(rec, 48);
    const recOffset = offset;
    push(rec);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    u64(recOffset).copy(loc, 8);
    loc.writeUInt32LE(1, 16);
    push(loc);
  }
  const comment = Buffer.from(opts.comment ?? '', 'latin1');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(z64 ? 0xffff : entries.length, 8);
  eocd.writeUInt16LE(z64 ? 0xffff : entries.length, 10);
  eocd.writeUInt32LE(z64 ? 0xffffffff : cd.length, 12);
  eocd.writeUInt32LE(z64 ? 0xffffffff : cdOffset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  push(Buffer.concat([eocd, comment]));
  return Buffer.concat(parts);
}

export function writeZip(file: string, entries: ZipEntryInput[], opts?: BuildZipOptions): void {
  fs.writeFileSync(file, buildZip(entries, opts));
}
