// fsync of a file or folder by path, for writers that publish by rename.
import { open } from 'node:fs/promises';

/** Durability before the rename: the name must never point at bytes still in the page cache only. */
export async function fsyncPath(p: string, flags = 'r+'): Promise<void> {
  const fh = await open(p, flags);
  try {
    await fh.sync();
  } catch (err) {
    // Some filesystems refuse fsync on directories; the file's own fsync is what matters most.
    if (flags === 'r+') throw err;
  } finally {
    await fh.close();
  }
}
