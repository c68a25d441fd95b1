// The records of a zip file, byte by byte (PKWARE APPNOTE 6.3): the local header before each
// member's data, the data descriptor after it, the central directory headers and the end records.
// ZIP64 fields appear only when a size, an offset or the entry count needs them, or when forced
// (so the tests can exercise that path without 4 GB files).

export const U32 = 0xffffffff;
export const U16 = 0xffff;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const ZIP64_EXTRA = 0x0001;

export interface ZipEntry {
  /** The name's bytes (Latin-1; no UTF-8 flag). */
  name: Buffer;
  /** Where the local header starts. */
  offset: number;
  crc: number;
  csize: number;
  usize: number;
  /** 0 stored, 8 deflate. */
  method: 0 | 8;
  /** CRC and sizes follow the data (streamed members) instead of standing in the local header. */
  descriptor: boolean;
}

export interface DosTime {
  time: number;
  date: number;
}

export function dosDateTime(d: Date): DosTime {
  // Local-time-free: the zip format has no zone, and UTC keeps runs identical everywhere.
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1);
  const date = ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
  return { time, date };
}

function zip64Extra(values: bigint[]): Buffer {
  if (!values.length) return Buffer.alloc(0);
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(ZIP64_EXTRA, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  values.forEach((v, i) => extra.writeBigUInt64LE(v, 4 + 8 * i));
  return extra;
}

/**
 * The local header, name and extra field. A streamed member's CRC and sizes are not known yet:
 * they stay zero (and its ZIP64 extra zero-filled, which tells readers that the data descriptor
 * carries 8-byte sizes).
 */
export function localHeader(e: ZipEntry, zip64: boolean, t: DosTime): Buffer {
  const known = !e.descriptor;
  const extra = zip64 ? zip64Extra(known ? [BigInt(e.usize), BigInt(e.csize)] : [0n, 0n]) : Buffer.alloc(0);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(zip64 ? 45 : 20, 4);
  h.writeUInt16LE(e.descriptor ? FLAG_DATA_DESCRIPTOR : 0, 6);
  h.writeUInt16LE(e.method, 8);
  h.writeUInt16LE(t.time, 10);
  h.writeUInt16LE(t.date, 12);
  if (known) h.writeUInt32LE(e.crc >>> 0, 14);
  if (zip64) {
    h.writeUInt32LE(U32, 18);
    h.writeUInt32LE(U32, 22);
  } else if (known) {
    h.writeUInt32LE(e.csize, 18);
    h.writeUInt32LE(e.usize, 22);
  }
  h.writeUInt16LE(e.name.length, 26);
  h.writeUInt16LE(extra.length, 28);
  return Buffer.concat([h, e.name, extra]);
}

/** The data descriptor after a streamed member: CRC and sizes, 8-byte sizes when `big`. */
export function dataDescriptor(e: ZipEntry, big: boolean): Buffer {
  const d = Buffer.alloc(big ? 24 : 16);
  d.writeUInt32LE(0x08074b50, 0);
  d.writeUInt32LE(e.crc >>> 0, 4);
  if (big) {
    d.writeBigUInt64LE(BigInt(e.csize), 8);
    d.writeBigUInt64LE(BigInt(e.usize), 16);
  } else {
    d.writeUInt32LE(e.csize, 8);
    d.writeUInt32LE(e.usize, 12);
  }
  return d;
}

export function centralHeader(e: ZipEntry, forceZip64: boolean, t: DosTime): Buffer {
  const needUsize = forceZip64 || e.usize >= U32;
  const needCsize = forceZip64 || e.csize >= U32;
  const needOffset = forceZip64 || e.offset >= U32;
  const fields: bigint[] = [];
  // ZIP64 extra fields must appear in this order, and only those whose header slot is 0xFFFFFFFF
  if (needUsize) fields.push(BigInt(e.usize));
  if (needCsize) fields.push(BigInt(e.csize));
  if (needOffset) fields.push(BigInt(e.offset));
  const extra = zip64Extra(fields);
  const version = fields.length ? 45 : 20;
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(version, 4); // made by: MS-DOS host, spec version
  h.writeUInt16LE(version, 6);
  h.writeUInt16LE(e.descriptor ? FLAG_DATA_DESCRIPTOR : 0, 8);
  h.writeUInt16LE(e.method, 10);
  h.writeUInt16LE(t.time, 12);
  h.writeUInt16LE(t.date, 14);
  h.writeUInt32LE(e.crc >>> 0, 16);
  h.writeUInt32LE(needCsize ? U32 : e.csize, 20);
  h.writeUInt32LE(needUsize ? U32 : e.usize, 24);
  h.writeUInt16LE(e.name.length, 28);
  h.writeUInt16LE(extra.length, 30);
  // comment length, disk start, internal/external attributes stay 0
  h.writeUInt32LE(needOffset ? U32 : e.offset, 42);
  return Buffer.concat([h, e.name, extra]);
}

/**
 * What follows the central directory: the ZIP64 end record and its locator when needed (or
 * forced), then the end of central directory record with the archive comment.
 */
export function endRecords(
  count: number,
  cdStart: number,
  cdSize: number,
  forceZip64: boolean,
  comment: Buffer,
): Buffer {
  const parts: Buffer[] = [];
  const zip64 = forceZip64 || cdStart >= U32 || cdSize >= U32 || count >= U16;
  if (zip64) {
    const eocd64At = cdStart + cdSize;
    const r = Buffer.alloc(56);
    r.writeUInt32LE(0x06064b50, 0);
    r.writeBigUInt64LE(44n, 4); // size of the remaining record
    r.writeUInt16LE(45, 12);
    r.writeUInt16LE(45, 14);
    // disk numbers stay 0
    r.writeBigUInt64LE(BigInt(count), 24);
    r.writeBigUInt64LE(BigInt(count), 32);
    r.writeBigUInt64LE(BigInt(cdSize), 40);
    r.writeBigUInt64LE(BigInt(cdStart), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeBigUInt64LE(BigInt(eocd64At), 8);
    loc.writeUInt32LE(1, 16);
    parts.push(r, loc);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const n = zip64 ? U16 : count;
  end.writeUInt16LE(Math.min(n, U16), 8);
  end.writeUInt16LE(Math.min(n, U16), 10);
  end.writeUInt32LE(zip64 ? U32 : cdSize, 12);
  end.writeUInt32LE(zip64 ? U32 : cdStart, 16);
  end.writeUInt16LE(comment.length, 20);
  parts.push(end, comment);
  return Buffer.concat(parts);
}
