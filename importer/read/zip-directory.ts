// Listing a zip: the end of central directory record (searched backwards past a comment), the
// ZIP64 records when the sizes need them, and the central directory's members. A zip inside a zip
// (a ZipSlice) is listed in place: every position is counted from its start.
import fs from 'node:fs';
import path from 'node:path';
import {
  readAt,
  SIG_CENTRAL,
  SIG_EOCD,
  SIG_EOCD64,
  SIG_EOCD64_LOCATOR,
  SIG_LOCAL,
  TRUNCATED,
  u64,
  zipFile,
  ZipError,
  type ZipInput,
  type ZipMember,
} from './zip-format.ts';

const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

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
  return CONTROL.test(out)
    ? out.replace(CONTROL_ALL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    : out;
}

export async function listZip(file: ZipInput): Promise<ZipMember[]> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(zipFile(file), 'r');
  } catch (err) {
    throw new ZipError(file, `cannot open the file (${(err as Error).message})`, { cause: err });
  }
  const base = typeof file === 'string' ? 0 : file.start;
  // Positions below count from the zip's first byte.
  const at = (position: number, length: number) => readAt(handle, base + position, length);
  try {
    const fileSize = (await handle.stat()).size;
    if (typeof file !== 'string' && file.start + file.size > fileSize) {
      throw new ZipError(
        file,
        `${TRUNCATED} (it ends ${file.start + file.size - fileSize} bytes past the end of ${path.basename(file.file)})`,
      );
    }
    const size = typeof file === 'string' ? fileSize : file.size;
    if (size === 0) throw new ZipError(file, 'empty file (0 bytes), not a zip');
    if (size < EOCD_SIZE) throw new ZipError(file, `${TRUNCATED} (only ${size} bytes)`);

    // The file server hands a macOS browser a month's folder as a tar above 4 GB (docs/receita-dump.md
    // §1); its last zip's end records would otherwise be taken for this file's.
    const start = await at(0, 262);
    if (start.length === 262 && start.readUInt32LE(0) !== SIG_LOCAL && start.toString('latin1', 257) === 'ustar') {
      throw new ZipError(file, 'a tar archive, not a zip: unpack it into a folder (tar -xf) and import that folder');
    }

    // The EOCD sits at the very end unless a comment (≤ 64 KiB) follows it: search backwards.
    const tailLen = Math.min(size, EOCD_SIZE + MAX_COMMENT);
    const tailStart = size - tailLen;
    const tail = await at(tailStart, tailLen);
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
      const head = await at(0, 4);
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
      const loc = await at(locPos, 20);
      if (loc.length === 20 && loc.readUInt32LE(0) === SIG_EOCD64_LOCATOR) {
        const recPos = u64(loc, 8);
        const rec = recPos + 56 <= locPos ? await at(recPos, 56) : Buffer.alloc(0);
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

    const cd = await at(cdOffset, cdSize);
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
          if (uncompressedSize === 0xffffffff && q + 8 <= end) {
            uncompressedSize = u64(cd, q);
            q += 8;
          }
          if (compressedSize === 0xffffffff && q + 8 <= end) {
            compressedSize = u64(cd, q);
            q += 8;
          }
          if (localHeaderOffset === 0xffffffff && q + 8 <= end) {
            localHeaderOffset = u64(cd, q);
            q += 8;
          }
        }
        e += 4 + len;
      }
      p = next;

      if (name.endsWith('/') || name.endsWith('\\')) continue; // directory entry
      if (flags & 0x1) throw new ZipError(file, `member ${name} is encrypted (not supported)`, { member: name });
      if (method !== 0 && method !== 8) {
        throw new ZipError(file, `compression method ${method} not supported in member ${name} (only 0 and 8)`, {
          member: name,
        });
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
    await handle.close().catch(() => {});
  }
}
