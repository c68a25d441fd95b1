// What the zip reader's parts share: the member record, where a zip's bytes are (a file or a slice
// of one), the one error type, the record signatures, and reading at an offset.
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

/**
 * A zip stored (uncompressed) as a member of another zip, as in a month's folder downloaded as one
 * zip: its bytes are the range [start, start + size) of `file`, and its own offsets count from
 * `start`. A plain object, so that it reaches the writer processes as it is.
 */
export interface ZipSlice {
  file: string;
  start: number;
  size: number;
  /** The inner zip's own name, `Empresas0.zip`. */
  name: string;
}

/** A zip to read: a file on disk, or a zip inside one. */
export type ZipInput = string | ZipSlice;

/** The file that holds the zip's bytes. */
export function zipFile(zip: ZipInput): string {
  return typeof zip === 'string' ? zip : zip.file;
}

/** The zip's own name: `Empresas0.zip`, whether it is a file or inside a folder download. */
export function zipName(zip: ZipInput): string {
  return typeof zip === 'string' ? path.basename(zip) : zip.name;
}

/** How messages and the rejects files name a zip: `Empresas0.zip`, or `2026-09.zip:Empresas0.zip`. */
export function zipLabel(zip: ZipInput): string {
  return typeof zip === 'string' ? path.basename(zip) : `${path.basename(zip.file)}:${zip.name}`;
}

export class ZipError extends Error {
  /** The file on disk (the outer zip, for a zip inside one). */
  readonly file: string;
  readonly member: string | undefined;
  constructor(zip: ZipInput, message: string, opts?: { member?: string; cause?: unknown }) {
    super(`${zipLabel(zip)}: ${message}`, opts?.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ZipError';
    this.file = zipFile(zip);
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
