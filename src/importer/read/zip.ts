// Streaming zip reader for the Receita Federal dumps: no unzip to disk, no third-party code.
// Supports stored/deflate members and ZIP64 (Estabelecimentos0 inflates to > 4 GB).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Readable, Transform, type TransformCallback } from 'node:stream';

export interface ZipMember {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
  localHeaderOffset: number;
}

export class ZipError extends Error {
  readonly file: string;
  readonly member: string | undefined;
  constructor(file: string, message: string, opts?: { member?: string; cause?: unknown }) {
    super(`${path.basename(file)}: ${message}`, opts?.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ZipError';
    this.file = file;
    this.member = opts?.member;
  }
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_EOCD64 = 0x06064b50;
const SIG_EOCD64_LOCATOR = 0x07064b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const DEFAULT_CHUNK = 1 << 20;

// Names without the UTF-8 flag are CP437 by the spec; only the upper half differs from ASCII.
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const CONTROL_ALL = new RegExp(CONTROL.source, 'g');

function decodeName(buf: Buffer, utf8: boolean): string {
  let out = '';
  if (utf8) out = buf.toString('utf8');
  else for (const b of buf) out += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
  // Member names reach the operator's terminal (errors, the rejects files): a control character
  // (ESC starts a terminal command: clear the screen, set the title) is shown as \xNN instead.
  return CONTROL.test(out) ? out.replace(CONTROL_ALL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : out;
}

async function readAt(fh: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buf : buf.subarray(0, done);
}

// 64-bit little-endian field as a safe JS number (files here are far below 2^53).
function u64(buf: Buffer, off: number): number {
  return buf.readUInt32LE(off) + buf.readUInt32LE(off + 4) * 0x100000000;
}

const TRUNCATED = 'truncated or corrupt zip file';

export async function listZip(file: string): Promise<ZipMember[]> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, 'r');
  } catch (err) {
    throw new ZipError(file, `cannot open the file (${(err as Error).message})`, { cause: err });
  }
  try {
    const size = (await fh.stat()).size;
    if (size === 0) throw new ZipError(file, 'empty file (0 bytes), not a zip');
    if (size < EOCD_SIZE) throw new ZipError(file, `${TRUNCATED} (only ${size} bytes)`);

    // The EOCD sits at the very end unless a comment (≤ 64 KiB) follows it: search backwards.
    const tailLen = Math.min(size, EOCD_SIZE + MAX_COMMENT);
    const tailStart = size - tailLen;
    const tail = await readAt(fh, tailStart, tailLen);
    let eocdRel = -1;
    for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
      if (tail[i] === 0x50 && tail.readUInt32LE(i) === SIG_EOCD) {
        // Accept only if the comment length fits exactly (or at least fits) the remaining bytes.
        const commentLen = tail.readUInt16LE(i + 20);
        if (i + EOCD_SIZE + commentLen <= tail.length) {
          eocdRel = i;
          break;
        }
      }
    }
    if (eocdRel < 0) {
      const head = await readAt(fh, 0, 4);
      const looksZip = head.length === 4 && head.readUInt32LE(0) === SIG_LOCAL;
      throw new ZipError(
        file,
        looksZip ? `${TRUNCATED} (end of central directory not found)` : 'not a zip file (no signature)',
      );
    }
    const eocdPos = tailStart + eocdRel;
    const eocd = tail.subarray(eocdRel, eocdRel + EOCD_SIZE);
    let diskNo = eocd.readUInt16LE(4);
    let entries = eocd.readUInt16LE(10);
    let cdSize = eocd.readUInt32LE(12);
    let cdOffset = eocd.readUInt32LE(16);
    let cdEnd = eocdPos; // where the central directory must end

    // ZIP64: a locator just before the EOCD points at the EOCD64 record holding the real values.
    const locPos = eocdPos - 20;
    if (locPos >= 0) {
      const loc = await readAt(fh, locPos, 20);
      if (loc.length === 20 && loc.readUInt32LE(0) === SIG_EOCD64_LOCATOR) {
        const recPos = u64(loc, 8);
        const rec = recPos + 56 <= locPos ? await readAt(fh, recPos, 56) : Buffer.alloc(0);
        if (rec.length !== 56 || rec.readUInt32LE(0) !== SIG_EOCD64) {
          throw new ZipError(file, `${TRUNCATED} (invalid ZIP64 end of central directory record)`);
        }
        diskNo = rec.readUInt32LE(16);
        entries = u64(rec, 32);
        cdSize = u64(rec, 40);
        cdOffset = u64(rec, 48);
        cdEnd = recPos;
      } else if (entries === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
        throw new ZipError(file, `${TRUNCATED} (ZIP64 locator missing)`);
      }
    }
    if (diskNo !== 0) throw new ZipError(file, 'multi-volume zip not supported');
    if (cdOffset + cdSize > cdEnd) {
      throw new ZipError(file, `${TRUNCATED} (central directory out of the file's bounds)`);
    }

    const cd = await readAt(fh, cdOffset, cdSize);
    if (cd.length !== cdSize) throw new ZipError(file, `${TRUNCATED} (central directory incomplete)`);
    const members: ZipMember[] = [];
    let p = 0;
    for (let n = 0; n < entries; n++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== SIG_CENTRAL) {
        throw new ZipError(file, `${TRUNCATED} (central directory entry ${n + 1} invalid)`);
      }
      const flags = cd.readUInt16LE(p + 8);
      const method = cd.readUInt16LE(p + 10);
      const crc32 = cd.readUInt32LE(p + 16);
      let compressedSize = cd.readUInt32LE(p + 20);
      let uncompressedSize = cd.readUInt32LE(p + 24);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      let localHeaderOffset = cd.readUInt32LE(p + 42);
      const next = p + 46 + nameLen + extraLen + commentLen;
      if (next > cd.length) throw new ZipError(file, `${TRUNCATED} (central directory entry ${n + 1} incomplete)`);
      const name = decodeName(cd.subarray(p + 46, p + 46 + nameLen), (flags & 0x800) !== 0);

      // Zip64 extended information: only the fields saturated in the fixed header are present, in this order.
      let e = p + 46 + nameLen;
      const extraEnd = e + extraLen;
      while (e + 4 <= extraEnd) {
        const id = cd.readUInt16LE(e);
        const len = cd.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          const end = Math.min(q + len, extraEnd);
          if (uncompressedSize === 0xffffffff && q + 8 <= end) { uncompressedSize = u64(cd, q); q += 8; }
          if (compressedSize === 0xffffffff && q + 8 <= end) { compressedSize = u64(cd, q); q += 8; }
          if (localHeaderOffset === 0xffffffff && q + 8 <= end) { localHeaderOffset = u64(cd, q); q += 8; }
        }
        e += 4 + len;
      }
      p = next;

      if (name.endsWith('/') || name.endsWith('\\')) continue; // directory entry
      if (flags & 0x1) throw new ZipError(file, `member ${name} is encrypted (not supported)`, { member: name });
      if (method !== 0 && method !== 8) {
        throw new ZipError(file, `compression method ${method} not supported in member ${name} (only 0 and 8)`, { member: name });
      }
      if (localHeaderOffset + 30 + compressedSize > cdOffset) {
        throw new ZipError(file, `${TRUNCATED} (data of member ${name} out of bounds)`, { member: name });
      }
      members.push({ name, method, compressedSize, uncompressedSize, crc32, localHeaderOffset });
    }
    return members;
  } catch (err) {
    if (err instanceof ZipError) throw err;
    throw new ZipError(file, `error reading the zip (${(err as Error).message})`, { cause: err });
  } finally {
    await fh.close().catch(() => {});
  }
}

/**
 * Final stage of a member stream: verifies CRC-32 and size of the inflated bytes and turns every upstream
 * failure into a ZipError, so the consumer sees exactly one clean error.
 */
class CheckedMemberStream extends Transform {
  private crc = 0;
  private bytes = 0;
  private upstream: Array<NodeJS.ReadableStream & { destroy(err?: Error): unknown }> = [];

  constructor(
    private readonly file: string,
    private readonly member: ZipMember,
    highWaterMark: number,
  ) {
    super({ readableHighWaterMark: highWaterMark, writableHighWaterMark: highWaterMark });
  }

  attach(stream: NodeJS.ReadableStream & { destroy(err?: Error): unknown }): void {
    this.upstream.push(stream);
    stream.on('error', (err: Error) => this.fail(err));
  }

  fail(err: unknown): void {
    if (this.destroyed) return;
    this.destroy(toZipError(err, this.file, this.member));
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.member.uncompressedSize) {
      cb(new ZipError(this.file, `member ${this.member.name} larger than its declared size (${this.member.uncompressedSize} bytes): corrupt file`, { member: this.member.name }));
      return;
    }
    this.crc = zlib.crc32(chunk, this.crc);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    const m = this.member;
    if (this.bytes !== m.uncompressedSize) {
      cb(new ZipError(this.file, `${TRUNCATED}: member ${m.name} ended after ${this.bytes} of ${m.uncompressedSize} bytes`, { member: m.name }));
    } else if (this.crc >>> 0 !== m.crc32 >>> 0) {
      cb(new ZipError(this.file, `CRC mismatch in member ${m.name} (corrupt file)`, { member: m.name }));
    } else {
      cb();
    }
  }

  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    for (const s of this.upstream) s.destroy();
    cb(err);
  }
}

function toZipError(err: unknown, file: string, member: ZipMember): ZipError {
  if (err instanceof ZipError) return err;
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.code === 'string' && (e.code.startsWith('Z_') || e.code.startsWith('ERR_ZLIB'))) {
    return new ZipError(file, `invalid compressed data in member ${member.name} (${e.message}): corrupt or truncated file`, { member: member.name, cause: err });
  }
  return new ZipError(file, `error reading member ${member.name} (${e?.message ?? String(err)})`, { member: member.name, cause: err });
}

/** Counts compressed bytes (progress callback) and checks that the member's data did not end early. */
class CompressedCounter extends Transform {
  private n = 0;
  constructor(
    private readonly expected: number,
    private readonly onBytes: ((n: number) => void) | undefined,
    private readonly file: string,
    private readonly member: ZipMember,
    hwm: number,
  ) {
    super({ readableHighWaterMark: hwm, writableHighWaterMark: hwm });
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.n += chunk.length;
    if (this.onBytes) {
      try {
        this.onBytes(chunk.length);
      } catch (err) {
        cb(err as Error);
        return;
      }
    }
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    if (this.n !== this.expected) {
      cb(new ZipError(this.file, `${TRUNCATED}: member ${this.member.name} has ${this.n} of ${this.expected} compressed bytes`, { member: this.member.name }));
    } else cb();
  }
}

export function openMemberStream(
  file: string,
  member: ZipMember,
  opts?: { onCompressedBytes?: (n: number) => void; highWaterMark?: number },
): Readable {
  const hwm = opts?.highWaterMark ?? DEFAULT_CHUNK;
  const out = new CheckedMemberStream(file, member, hwm);
  if (member.method !== 0 && member.method !== 8) {
    process.nextTick(() => out.fail(new ZipError(file, `compression method ${member.method} not supported in member ${member.name}`, { member: member.name })));
    return out;
  }
  // The local header has its own name/extra lengths (they may differ from the central directory's).
  void (async () => {
    const fh = await fs.promises.open(file, 'r');
    let header: Buffer;
    try {
      header = await readAt(fh, member.localHeaderOffset, 30);
    } finally {
      await fh.close().catch(() => {});
    }
    if (header.length !== 30 || header.readUInt32LE(0) !== SIG_LOCAL) {
      throw new ZipError(file, `invalid local header of member ${member.name} (corrupt file)`, { member: member.name });
    }
    if (out.destroyed) return;
    const dataStart = member.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const source: Readable =
      member.compressedSize === 0
        ? Readable.from([])
        : fs.createReadStream(file, { start: dataStart, end: dataStart + member.compressedSize - 1, highWaterMark: hwm });
    const counter = new CompressedCounter(member.compressedSize, opts?.onCompressedBytes, file, member, hwm);
    out.attach(source);
    out.attach(counter);
    if (member.method === 8) {
      const inflate = zlib.createInflateRaw({ chunkSize: hwm });
      out.attach(inflate);
      source.pipe(counter).pipe(inflate).pipe(out);
    } else {
      source.pipe(counter).pipe(out);
    }
  })().catch((err) => out.fail(err));
  return out;
}
