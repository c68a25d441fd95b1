// A small streaming zip writer for the synthetic dumps: one member at a time, written
// straight to the file descriptor with synchronous I/O, so memory stays at one chunk.
//
// Deflate without a stream object: every chunk is compressed on its own with
// Z_SYNC_FLUSH, which ends it on a byte boundary without the BFINAL bit; raw deflate
// blocks concatenate, so the member is the chunks back to back plus one empty final
// block (0x03 0x00). This is what pigz does; the cost is losing the 32 KB window at
// each chunk boundary, which is nothing at 512 KB chunks.
//
// Local headers carry the data-descriptor flag (sizes and CRC come after the data).
// ZIP64 records are added only when a size, an offset or the entry count needs them,
// or always with `forceZip64` (so the tests can exercise that path without 4 GB files).

import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

const CHUNK_CHARS = 512 * 1024;
const U32 = 0xffffffff;
const U16 = 0xffff;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const METHOD_DEFLATE = 8;
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

export interface ZipWriterOptions {
  /** Deflate level; test data favours speed. */
  level?: number;
  /** Timestamp of every member (fixed so output is byte-identical across runs). */
  mtime?: Date;
  /** Write ZIP64 extra fields and end records even when nothing needs them. */
  forceZip64?: boolean;
}

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  csize: number;
  usize: number;
}

function dosDateTime(d: Date): { time: number; date: number } {
  // Local-time-free: the zip format has no zone, and UTC keeps runs identical everywhere.
  const time = (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1);
  const date = ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate();
  return { time, date };
}

export class ZipWriter {
  private readonly fd: number;
  private readonly level: number;
  private readonly time: number;
  private readonly date: number;
  private readonly forceZip64: boolean;
  private readonly entries: Entry[] = [];
  private offset = 0;
  private current: Entry | null = null;
  private pending = '';
  private closed = false;

  constructor(readonly path: string, opts: ZipWriterOptions = {}) {
    this.fd = openSync(path, 'w');
    this.level = opts.level ?? 1;
    this.forceZip64 = opts.forceZip64 ?? false;
    const { time, date } = dosDateTime(opts.mtime ?? new Date(Date.UTC(2026, 0, 1)));
    this.time = time;
    this.date = date;
  }

  /** Bytes written so far (the final size once closed). */
  get bytesWritten(): number {
    return this.offset;
  }

  private out(buf: Buffer): void {
    let done = 0;
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done);
    this.offset += buf.length;
  }

  beginEntry(name: string): void {
    if (this.current) throw new Error('previous entry still open');
    const nameBuf = Buffer.from(name, 'latin1');
    this.current = { name: nameBuf, offset: this.offset, crc: 0, csize: 0, usize: 0 };
    const zip64 = this.forceZip64;
    // With forceZip64 the local header gets a zero-filled ZIP64 extra, which tells readers
    // that the data descriptor carries 8-byte sizes.
    const extra = zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
    }
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(zip64 ? 45 : 20, 4);
    h.writeUInt16LE(FLAG_DATA_DESCRIPTOR, 6);
    h.writeUInt16LE(METHOD_DEFLATE, 8);
    h.writeUInt16LE(this.time, 10);
    h.writeUInt16LE(this.date, 12);
    // crc and sizes stay zero here: they follow in the data descriptor
    if (zip64) {
      h.writeUInt32LE(U32, 18);
      h.writeUInt32LE(U32, 22);
    }
    h.writeUInt16LE(nameBuf.length, 26);
    h.writeUInt16LE(extra.length, 28);
    this.out(h);
    this.out(nameBuf);
    this.out(extra);
  }

  /** Appends text, encoded as Latin-1 (every char must be ≤ U+00FF). */
  write(text: string): void {
    this.pending += text;
    if (this.pending.length >= CHUNK_CHARS) this.flushText();
  }

  /** Appends raw bytes. */
  writeBytes(buf: Buffer): void {
    this.flushText();
    this.compress(buf);
  }

  private flushText(): void {
    if (this.pending.length === 0) return;
    const buf = Buffer.from(this.pending, 'latin1');
    this.pending = '';
    this.compress(buf);
  }

  private compress(buf: Buffer): void {
    const e = this.current;
    if (!e) throw new Error('no open entry');
    if (buf.length === 0) return;
    e.crc = crc32(buf, e.crc);
    e.usize += buf.length;
    const z = deflateRawSync(buf, { level: this.level, finishFlush: constants.Z_SYNC_FLUSH });
    e.csize += z.length;
    this.out(z);
  }

  endEntry(): void {
    const e = this.current;
    if (!e) throw new Error('no open entry');
    this.flushText();
    this.out(FINAL_EMPTY_BLOCK);
    e.csize += FINAL_EMPTY_BLOCK.length;
    const big = this.forceZip64 || e.csize >= U32 || e.usize >= U32;
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
    this.out(d);
    this.entries.push(e);
    this.current = null;
  }

  /** Adds a whole member from text. */
  addText(name: string, text: string): void {
    this.beginEntry(name);
    this.write(text);
    this.endEntry();
  }

  /** Adds a member by streaming an existing file through the compressor. */
  addFile(name: string, srcPath: string): void {
    this.beginEntry(name);
    const fd = openSync(srcPath, 'r');
    const buf = Buffer.alloc(CHUNK_CHARS);
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, null);
        if (n === 0) break;
        this.writeBytes(Buffer.from(buf.subarray(0, n)));
      }
    } finally {
      closeSync(fd);
    }
    this.endEntry();
  }

  close(): void {
    if (this.closed) return;
    if (this.current) throw new Error('entry still open');
    const cdStart = this.offset;
    for (const e of this.entries) this.out(this.centralHeader(e));
    const cdSize = this.offset - cdStart;
    const zip64 = this.forceZip64 || cdStart >= U32 || cdSize >= U32 || this.entries.length >= U16;
    if (zip64) {
      const eocd64At = this.offset;
      const r = Buffer.alloc(56);
      r.writeUInt32LE(0x06064b50, 0);
      r.writeBigUInt64LE(44n, 4); // size of the remaining record
      r.writeUInt16LE(45, 12);
      r.writeUInt16LE(45, 14);
      // disk numbers stay 0
      r.writeBigUInt64LE(BigInt(this.entries.length), 24);
      r.writeBigUInt64LE(BigInt(this.entries.length), 32);
      r.writeBigUInt64LE(BigInt(cdSize), 40);
      r.writeBigUInt64LE(BigInt(cdStart), 48);
      this.out(r);
      const loc = Buffer.alloc(20);
      loc.writeUInt32LE(0x07064b50, 0);
      loc.writeBigUInt64LE(BigInt(eocd64At), 8);
      loc.writeUInt32LE(1, 16);
      this.out(loc);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    const n = zip64 ? U16 : this.entries.length;
    end.writeUInt16LE(Math.min(n, U16), 8);
    end.writeUInt16LE(Math.min(n, U16), 10);
    end.writeUInt32LE(zip64 ? U32 : cdSize, 12);
    end.writeUInt32LE(zip64 ? U32 : cdStart, 16);
    this.out(end);
    closeSync(this.fd);
    this.closed = true;
  }

  private centralHeader(e: Entry): Buffer {
    const needUsize = this.forceZip64 || e.usize >= U32;
    const needCsize = this.forceZip64 || e.csize >= U32;
    const needOffset = this.forceZip64 || e.offset >= U32;
    const fields: bigint[] = [];
    // ZIP64 extra fields must appear in this order, and only those whose header slot is 0xFFFFFFFF
    if (needUsize) fields.push(BigInt(e.usize));
    if (needCsize) fields.push(BigInt(e.csize));
    if (needOffset) fields.push(BigInt(e.offset));
    const extra = Buffer.alloc(fields.length ? 4 + 8 * fields.length : 0);
    if (fields.length) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8 * fields.length, 2);
      fields.forEach((v, i) => extra.writeBigUInt64LE(v, 4 + 8 * i));
    }
    const version = fields.length ? 45 : 20;
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(version, 4); // made by: MS-DOS host, spec version
    h.writeUInt16LE(version, 6);
    h.writeUInt16LE(FLAG_DATA_DESCRIPTOR, 8);
    h.writeUInt16LE(METHOD_DEFLATE, 10);
    h.writeUInt16LE(this.time, 12);
    h.writeUInt16LE(this.date, 14);
    h.writeUInt32LE(e.crc >>> 0, 16);
    h.writeUInt32LE(needCsize ? U32 : e.csize, 20);
    h.writeUInt32LE(needUsize ? U32 : e.usize, 24);
    h.writeUInt16LE(e.name.length, 28);
    h.writeUInt16LE(extra.length, 30);
    // comment length, disk start, internal/external attributes stay 0
    h.writeUInt32LE(needOffset ? U32 : e.offset, 42);
    return Buffer.concat([h, e.name, extra]);
  }
}
