// Streaming one member: its bytes read from the local header on, inflated when deflated, and
// checked (compressed length, size, CRC-32) so that a corrupt file ends in one clean ZipError. A
// member of a zip inside a zip (a ZipSlice) is read at the slice's start plus its own offsets.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { readAt, SIG_LOCAL, TRUNCATED, zipFile, ZipError, type ZipInput, type ZipMember } from './zip-format.ts';

const DEFAULT_CHUNK = 1 << 20;

/**
 * Final stage of a member stream: verifies CRC-32 and size of the inflated bytes and turns every upstream
 * failure into a ZipError, so the consumer sees exactly one clean error.
 */
class CheckedMemberStream extends Transform {
  private crc = 0;
  private bytes = 0;
  private upstream: Array<NodeJS.ReadableStream & { destroy(err?: Error): unknown }> = [];

  constructor(
    private readonly file: ZipInput,
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
      cb(
        new ZipError(
          this.file,
          `member ${this.member.name} larger than its declared size (${this.member.uncompressedSize} bytes): corrupt file`,
          { member: this.member.name },
        ),
      );
      return;
    }
    this.crc = zlib.crc32(chunk, this.crc);
    cb(null, chunk);
  }

  override _flush(cb: TransformCallback): void {
    const m = this.member;
    if (this.bytes !== m.uncompressedSize) {
      cb(
        new ZipError(
          this.file,
          `${TRUNCATED}: member ${m.name} ended after ${this.bytes} of ${m.uncompressedSize} bytes`,
          { member: m.name },
        ),
      );
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

function toZipError(err: unknown, file: ZipInput, member: ZipMember): ZipError {
  if (err instanceof ZipError) return err;
  const e = err as NodeJS.ErrnoException;
  if (typeof e?.code === 'string' && (e.code.startsWith('Z_') || e.code.startsWith('ERR_ZLIB'))) {
    return new ZipError(
      file,
      `invalid compressed data in member ${member.name} (${e.message}): corrupt or truncated file`,
      { member: member.name, cause: err },
    );
  }
  return new ZipError(file, `error reading member ${member.name} (${e?.message ?? String(err)})`, {
    member: member.name,
    cause: err,
  });
}

/** Counts compressed bytes (progress callback) and checks that the member's data did not end early. */
class CompressedCounter extends Transform {
  private n = 0;
  constructor(
    private readonly expected: number,
    private readonly onBytes: ((n: number) => void) | undefined,
    private readonly file: ZipInput,
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
      cb(
        new ZipError(
          this.file,
          `${TRUNCATED}: member ${this.member.name} has ${this.n} of ${this.expected} compressed bytes`,
          { member: this.member.name },
        ),
      );
    } else cb();
  }
}

export function openMemberStream(
  file: ZipInput,
  member: ZipMember,
  opts?: { onCompressedBytes?: (n: number) => void; highWaterMark?: number },
): Readable {
  const hwm = opts?.highWaterMark ?? DEFAULT_CHUNK;
  const out = new CheckedMemberStream(file, member, hwm);
  if (member.method !== 0 && member.method !== 8) {
    process.nextTick(() =>
      out.fail(
        new ZipError(file, `compression method ${member.method} not supported in member ${member.name}`, {
          member: member.name,
        }),
      ),
    );
    return out;
  }
  // The local header has its own name/extra lengths (they may differ from the central directory's).
  const base = typeof file === 'string' ? 0 : file.start;
  void (async () => {
    const fh = await fs.promises.open(zipFile(file), 'r');
    let header: Buffer;
    try {
      header = await readAt(fh, base + member.localHeaderOffset, 30);
    } finally {
      await fh.close().catch(() => {});
    }
    if (header.length !== 30 || header.readUInt32LE(0) !== SIG_LOCAL) {
      throw new ZipError(file, `invalid local header of member ${member.name} (corrupt file)`, { member: member.name });
    }
    if (out.destroyed) return;
    const dataStart = member.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    // Past the slice's end lie the next member's bytes of the outer zip, not this one's.
    if (typeof file !== 'string' && dataStart + member.compressedSize > file.size) {
      throw new ZipError(file, `${TRUNCATED} (data of member ${member.name} out of bounds)`, { member: member.name });
    }
    const source: Readable =
      member.compressedSize === 0
        ? Readable.from([])
        : fs.createReadStream(zipFile(file), {
            start: base + dataStart,
            end: base + dataStart + member.compressedSize - 1,
            highWaterMark: hwm,
          });
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
