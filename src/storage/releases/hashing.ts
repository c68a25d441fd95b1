// SHA-256 of a file and of each of its chunks, in one sequential read.
import crypto from 'node:crypto';
import { open } from 'node:fs/promises';

const READ_BYTES = 4 * 2 ** 20;

export interface FileHashes {
  size: number;
  sha256: string;
  chunks: string[];
}

/** Hashes `file` whole and per `chunkBytes` range; `onBytes` sees progress. */
export async function hashFile(
  file: string,
  chunkBytes: number,
  onBytes?: (delta: number) => void,
): Promise<FileHashes> {
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    const whole = crypto.createHash('sha256');
    const chunks: string[] = [];
    const buf = Buffer.allocUnsafe(Math.min(READ_BYTES, chunkBytes));
    for (let start = 0; start < size; start += chunkBytes) {
      const end = Math.min(size, start + chunkBytes);
      const h = crypto.createHash('sha256');
      for (let pos = start; pos < end;) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, end - pos), pos);
        if (bytesRead === 0) throw new Error(`${file} shrank while it was read`);
        const slice = buf.subarray(0, bytesRead);
        h.update(slice);
        whole.update(slice);
        pos += bytesRead;
        onBytes?.(bytesRead);
      }
      chunks.push(h.digest('hex'));
    }
    return { size, sha256: whole.digest('hex'), chunks };
  } finally {
    await fh.close();
  }
}

/** SHA-256 of bytes [start, end) of an open file (a resumed pull's check of what it already has). */
export async function hashRange(
  fh: import('node:fs/promises').FileHandle,
  start: number,
  end: number,
  buf: Buffer,
): Promise<string> {
  const h = crypto.createHash('sha256');
  for (let pos = start; pos < end;) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, end - pos), pos);
    if (bytesRead === 0) break;
    h.update(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return h.digest('hex');
}
