// What the zip reader's two halves share: the member record, the one error type, the record
// signatures, and reading at an offset.
import type fs from 'node:fs';
import path from 'node:path';

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

export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_EOCD = 0x06054b50;
export const SIG_EOCD64 = 0x06064b50;
export const SIG_EOCD64_LOCATOR = 0x07064b50;

export async function readAt(fh: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
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
export function u64(buf: Buffer, off: number): number {
  return buf.readUInt32LE(off) + buf.readUInt32LE(off + 4) * 0x100000000;
}

export const TRUNCATED = 'truncated or corrupt zip file';
