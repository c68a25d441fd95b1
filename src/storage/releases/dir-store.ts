// A release store on a local or mounted folder (NFS included). Every file is written under a
// temporary name, flushed, then renamed: a key holds the whole file or does not exist.
import fs from 'node:fs';
import { copyFile, mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fsyncPath } from '../fs-sync.ts';
import { FatalDownloadError } from '../transfer/http.ts';
import { NotFoundInStore, type PutOptions, type ReleaseStore } from './store.ts';

export function openDirStore(root: string): ReleaseStore {
  const abs = path.resolve(root);
  const file = (key: string) => path.join(abs, ...key.split('/'));
  const tmpOf = (f: string) => `${f}.tmp-${process.pid}`;

  async function commit(tmp: string, final: string): Promise<void> {
    await fsyncPath(tmp);
    await rename(tmp, final);
    await fsyncPath(path.dirname(final), 'r');
  }

  return {
    label: abs,
    writable: true,
    async getBytes(key) {
      try {
        return await readFile(file(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async *getRange(key, start, end) {
      if (end <= start) return;
      let fh;
      try {
        fh = await open(file(key), 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundInStore(abs, key);
        throw err;
      }
      try {
        const size = (await fh.stat()).size;
        if (size < end)
          throw new FatalDownloadError(
            `${key} at ${abs} is ${size} bytes, the manifest needs at least ${end}: the release there is damaged`,
          );
        for await (const chunk of fh.createReadStream({
          start,
          end: end - 1,
          highWaterMark: 1 << 20,
          autoClose: false,
        }))
          yield chunk as Buffer;
      } finally {
        await fh.close();
      }
    },
    async putFile(key, src, opts: PutOptions) {
      const final = file(key);
      await mkdir(path.dirname(final), { recursive: true });
      const tmp = tmpOf(final);
      // A reflink where the filesystem has them (btrfs, XFS), else a kernel-side copy.
      await copyFile(src, tmp, fs.constants.COPYFILE_FICLONE);
      opts.onBytes?.(opts.size);
      await commit(tmp, final);
    },
    async putBytes(key, body) {
      const final = file(key);
      await mkdir(path.dirname(final), { recursive: true });
      const tmp = tmpOf(final);
      await writeFile(tmp, body);
      await commit(tmp, final);
    },
    async hasFile(key, size) {
      // Written by rename only: a file under its final name is whole; the release id, a hash of
      // every file's hash, names the folder, so the same key holds the same bytes.
      try {
        return (await stat(file(key))).size === size;
      } catch {
        return false;
      }
    },
    async listReleases() {
      try {
        const entries = await readdir(path.join(abs, 'releases'), { withFileTypes: true });
        return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
    },
    async removeRelease(id) {
      await rm(path.join(abs, 'releases', id), { recursive: true, force: true });
    },
    async close() {},
  };
}
