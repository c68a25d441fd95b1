// The read-ahead of the disk under the data dir (Linux sysfs), for a warning at `serve` and
// `import`. The server and the search build read the snapshot through a memory map, and a page
// fault on an uncached part of a map reads around the page as much as the device's read-ahead.
// Most disks have 128 KB; some VMs have 8 MB, and then every cold B-tree page of a random lookup
// is an 8 MB read: on a full month, cold first pages of searches took many times as long as at
// 128 KB (docs/benchmarks.md, "Search on the full month (fifth measurement)", "The read-ahead").
import fs from 'node:fs';
import path from 'node:path';

/** Above this a warning is worth it (128 KB is the usual default). */
export const READ_AHEAD_WARN_KB = 512;

/** The major and minor numbers of a Linux dev_t (glibc's gnu_dev_major/minor). */
export function deviceNumbers(dev: bigint): [number, number] {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & 0xfffff000n);
  const minor = (dev & 0xffn) | ((dev >> 12n) & 0xffffff00n);
  return [Number(major), Number(minor)];
}

/** The block device holding `file` and its read-ahead in KB; null when not found (not Linux, no block device). */
export function readAheadOf(file: string, sysfs = '/sys'): { device: string; kb: number } | null {
  try {
    const [major, minor] = deviceNumbers(fs.statSync(file, { bigint: true }).dev);
    const dir = fs.realpathSync(path.join(sysfs, 'dev', 'block', `${major}:${minor}`));
    // A partition has no queue of its own: its disk's is one level up.
    for (const disk of [dir, path.dirname(dir)]) {
      const f = path.join(disk, 'queue', 'read_ahead_kb');
      if (fs.existsSync(f)) {
        const kb = Number(fs.readFileSync(f, 'utf8').trim());
        return Number.isFinite(kb) ? { device: path.basename(disk), kb } : null;
      }
    }
  } catch {
    // No sysfs, no such device (overlay, tmpfs, another OS): nothing to say.
  }
  return null;
}

/** An operator warning when the data dir's disk reads ahead more than READ_AHEAD_WARN_KB, else null. */
export function readAheadWarning(dataDir: string, sysfs = '/sys'): string | null {
  // A data dir an import is about to create: the disk of its nearest existing parent.
  let existing = path.resolve(dataDir);
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const r = readAheadOf(existing, sysfs);
  if (r === null || r.kb <= READ_AHEAD_WARN_KB) return null;
  return (
    `warning: ${r.device}, the disk under ${dataDir}, reads ahead ${r.kb} KB: every uncached page of the memory-mapped ` +
    `snapshot then costs a ${r.kb} KB read (searches and lookups from a cold cache 10-30x slower). ` +
    `Set it to 128 KB: echo 128 | sudo tee /sys/block/${r.device}/queue/read_ahead_kb (docs/deploy.md, "Read-ahead")`
  );
}
