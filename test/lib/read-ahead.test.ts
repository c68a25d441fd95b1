// The read-ahead warning of `serve` and `import`, against a sysfs tree written here (a disk, a
// partition of it) for the device that really holds the test's files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deviceNumbers, readAheadOf, readAheadWarning } from '../../src/lib/read-ahead.ts';

test('dev_t: major and minor numbers as glibc splits them', () => {
  assert.deepEqual(deviceNumbers(0xfe00n), [254, 0]);
  assert.deepEqual(deviceNumbers(0x0803n), [8, 3]);
  // Large numbers: the low 12 bits of the major and 8 of the minor first, then the rest of each.
  const [major, minor] = [0x123abcn, 0x45678n];
  const dev = (minor & 0xffn) | ((major & 0xfffn) << 8n) | ((minor & ~0xffn) << 12n) | ((major & ~0xfffn) << 32n);
  assert.deepEqual(deviceNumbers(dev), [0x123abc, 0x45678]);
});

test("the data dir's disk: its read-ahead, through a partition; a warning above 512 KB only", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'read-ahead-'));
  try {
    const data = path.join(root, 'data');
    fs.mkdirSync(data);
    const [major, minor] = deviceNumbers(fs.statSync(data, { bigint: true }).dev);
    const sysfs = path.join(root, 'sys');
    const disk = path.join(sysfs, 'devices', 'virtio1', 'block', 'vdb');
    fs.mkdirSync(path.join(disk, 'vdb1'), { recursive: true });
    fs.mkdirSync(path.join(disk, 'queue'));
    fs.mkdirSync(path.join(sysfs, 'dev', 'block'), { recursive: true });
    const link = path.join(sysfs, 'dev', 'block', `${major}:${minor}`);
    const setReadAhead = (kb: string) => fs.writeFileSync(path.join(disk, 'queue', 'read_ahead_kb'), kb);

    assert.equal(readAheadOf(data, sysfs), null, 'no such device in sysfs');
    assert.equal(readAheadWarning(data, sysfs), null);
    fs.symlinkSync(path.join(disk, 'vdb1'), link);
    setReadAhead('8192\n');
    assert.deepEqual(readAheadOf(data, sysfs), { device: 'vdb', kb: 8192 }, "a partition: its disk's queue");
    const warning = readAheadWarning(data, sysfs);
    assert.match(warning ?? '', /vdb, the disk under .*data, reads ahead 8192 KB/);
    assert.match(warning ?? '', /echo 128 \| sudo tee \/sys\/block\/vdb\/queue\/read_ahead_kb/);
    setReadAhead('512\n');
    assert.equal(readAheadWarning(data, sysfs), null, 'at the bound: no warning');
    fs.unlinkSync(link);
    fs.symlinkSync(disk, link);
    setReadAhead('128\n');
    assert.deepEqual(readAheadOf(data, sysfs), { device: 'vdb', kb: 128 }, 'the whole disk');
    setReadAhead('4096');
    assert.match(
      readAheadWarning(path.join(root, 'missing', 'data'), sysfs) ?? '',
      /reads ahead 4096 KB/,
      "a data dir not made yet: its parent's disk",
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
