// A month's folder downloaded as one zip. The Receita's file server is a Nextcloud share whose
// "download folder" (…/s/<token>/download?path=/2026-09) streams the folder through ZipStreamer:
// a `2026-09/` directory entry, then every file stored (method 0) as `2026-09/<name>`, its CRC and
// sizes in a data descriptor after the data (general-purpose bit 3), ZIP64 records once the folder
// passes 4 GB (a real month does). A stored member's bytes are a contiguous range of the outer
// file, so each inner zip is read in place, as a ZipSlice: nothing is extracted.
import fs from 'node:fs';
import path from 'node:path';
import { readAt, SIG_LOCAL, TRUNCATED, ZipError, type ZipMember, type ZipSlice } from './zip-format.ts';

export interface FolderDownload {
  /** The folder the zips sit in inside the download (`2026-09`); '' when they sit at its top. */
  folder: string;
  zips: ZipSlice[];
}

/**
 * The zips inside `file`, given its members; null when it holds none (an ordinary zip). Members
 * that are not zips are skipped, as a folder's other files are.
 */
export async function folderDownload(file: string, members: ZipMember[]): Promise<FolderDownload | null> {
  const inner = members.filter((m) => /\.zip$/i.test(m.name));
  if (!inner.length) return null;
  const folders = [...new Set(inner.map((m) => folderOf(m.name)))];
  if (folders.length > 1) {
    const list = folders.map((f) => (f ? `${f}/` : 'its top')).join(', ');
    throw new ZipError(file, `holds zips in ${folders.length} folders (${list}): import one month's folder at a time`);
  }
  // Only a stored zip is a range of the outer file; a deflated one would have to be inflated
  // whole to reach its central directory, which sits at its end.
  const packed = inner.find((m) => m.method !== 0);
  if (packed) {
    throw new ZipError(
      file,
      `the zips inside it are compressed again (${path.posix.basename(slashes(packed.name))}: method ${packed.method}), so they cannot be read in place ` +
        `as in the folder download of the Receita's file server (stored zips). Unzip ${path.basename(file)} into a folder and import that folder.`,
      { member: packed.name },
    );
  }
  const fh = await fs.promises.open(file, 'r');
  try {
    const zips: ZipSlice[] = [];
    for (const m of inner) {
      if (m.compressedSize !== m.uncompressedSize) {
        throw new ZipError(file, `${TRUNCATED} (stored member ${m.name} has two sizes)`, { member: m.name });
      }
      // The data starts after the local header's own name and extra field (ZIP64 adds one).
      const header = await readAt(fh, m.localHeaderOffset, 30);
      if (header.length !== 30 || header.readUInt32LE(0) !== SIG_LOCAL) {
        throw new ZipError(file, `invalid local header of member ${m.name} (corrupt file)`, { member: m.name });
      }
      const start = m.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
      zips.push({ file, start, size: m.compressedSize, name: path.posix.basename(slashes(m.name)) });
    }
    return { folder: folders[0], zips };
  } finally {
    await fh.close().catch(() => {});
  }
}

function folderOf(name: string): string {
  const dir = path.posix.dirname(slashes(name));
  return dir === '.' ? '' : dir;
}

/** Zips written on Windows may separate folders with `\`. */
function slashes(name: string): string {
  return name.replace(/\\/g, '/');
}
