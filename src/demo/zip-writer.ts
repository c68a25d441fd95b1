// The project's one zip writer: the synthetic dumps stream through it, the zip reader's tests and
// the parse benchmark build their fixtures with it. Synchronous I/O straight to the file
// descriptor (or into memory), so memory stays at one chunk.
//
// Deflate without a stream object: every chunk is compressed on its own with
// Z_SYNC_FLUSH, which ends it on a byte boundary without the BFINAL bit; raw deflate
// blocks concatenate, so the member is the chunks back to back plus one empty final
// block (0x03 0x00). This is what pigz does; the cost is losing the 32 KB window at
// each chunk boundary, which is nothing at 512 KB chunks.
//
// Streamed members carry the data-descriptor flag (sizes and CRC come after the data); a
// member added whole (addMember) has them in its local header unless asked otherwise.

import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import {
  centralHeader,
  dataDescriptor,
  dosDateTime,
  endRecords,
  localHeader,
  U32,
  type DosTime,
  type ZipEntry,
} from './zip-records.ts';

const CHUNK_CHARS = 512 * 1024;
const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

export interface ZipWriterOptions {
  /** Deflate level; test data favours speed. */
  level?: number;
  /** Timestamp of every member (fixed so output is byte-identical across runs). */
  mtime?: Date;
  /** Write ZIP64 extra fields and end records even when nothing needs them. */
  forceZip64?: boolean;
  /** The archive comment (Latin-1). */
  comment?: string;
}

export interface MemberOptions {
  /** 0 stored, 8 deflate (default). */
  method?: 0 | 8;
  /** Sizes and CRC after the data, as streaming zippers write them (default: in the local header). */
  dataDescriptor?: boolean;
  /** Deflate level of this member (default: the writer's). */
  level?: number;
}

export class ZipWriter {
  private readonly fd: number | null;
  /** The bytes, when writing into memory. */
  private readonly chunks: Buffer[] | null;
  private readonly level: number;
  private readonly dos: DosTime;
  private readonly forceZip64: boolean;
  private readonly comment: Buffer;
  private readonly entries: ZipEntry[] = [];
  private offset = 0;
  private current: ZipEntry | null = null;
  private pending = '';
  private closed = false;

  /** Writes to the file `path`, or into memory when it is null (see contents()). */
  constructor(
    readonly path: string | null,
    opts: ZipWriterOptions = {},
  ) {
    this.fd = path === null ? null : openSync(path, 'w');
    this.chunks = path === null ? [] : null;
    this.level = opts.level ?? 1;
    this.forceZip64 = opts.forceZip64 ?? false;
    this.comment = Buffer.from(opts.comment ?? '', 'latin1');
    this.dos = dosDateTime(opts.mtime ?? new Date(Date.UTC(2026, 0, 1)));
  }

  static inMemory(opts: ZipWriterOptions = {}): ZipWriter {
    return new ZipWriter(null, opts);
  }

  /** Bytes written so far (the final size once closed). */
  get bytesWritten(): number {
    return this.offset;
  }

  /** The whole zip, once closed (in-memory writers only). */
  contents(): Buffer {
    if (!this.chunks || !this.closed) throw new Error('contents() is for a closed in-memory writer');
    return Buffer.concat(this.chunks);
  }

  private out(buf: Buffer): void {
    if (this.fd === null) this.chunks!.push(buf);
    else {
      let done = 0;
      while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done);
    }
    this.offset += buf.length;
  }

  private newEntry(name: string, method: 0 | 8, descriptor: boolean): ZipEntry {
    if (this.current) throw new Error('previous entry still open');
    return { name: Buffer.from(name, 'latin1'), offset: this.offset, crc: 0, csize: 0, usize: 0, method, descriptor };
  }

  /** Starts a streamed (deflated) member: write() its text, then endEntry(). */
  beginEntry(name: string): void {
    this.current = this.newEntry(name, 8, true);
    this.out(localHeader(this.current, this.forceZip64, this.dos));
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
    this.out(dataDescriptor(e, this.forceZip64 || e.csize >= U32 || e.usize >= U32));
    this.entries.push(e);
    this.current = null;
  }

  /** Adds a whole member from text, streamed. */
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

  /** Adds a member whose bytes are all at hand (text as Latin-1), stored or deflated in one piece. */
  addMember(name: string, data: Buffer | string, opts: MemberOptions = {}): void {
    const raw = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    const e = this.newEntry(name, opts.method ?? 8, opts.dataDescriptor ?? false);
    const body = e.method === 8 ? deflateRawSync(raw, { level: opts.level ?? this.level }) : raw;
    e.crc = crc32(raw);
    e.usize = raw.length;
    e.csize = body.length;
    const big = this.forceZip64 || e.csize >= U32 || e.usize >= U32;
    this.out(localHeader(e, big, this.dos));
    this.out(body);
    if (e.descriptor) this.out(dataDescriptor(e, big));
    this.entries.push(e);
  }

  close(): void {
    if (this.closed) return;
    if (this.current) throw new Error('entry still open');
    const cdStart = this.offset;
    for (const e of this.entries) this.out(centralHeader(e, this.forceZip64, this.dos));
    this.out(endRecords(this.entries.length, cdStart, this.offset - cdStart, this.forceZip64, this.comment));
    if (this.fd !== null) closeSync(this.fd);
    this.closed = true;
  }
}
