import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock, lockHolder } from '../../src/lib/pid-lock.ts';

function tempFile(): { file: string; done: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pid-lock-'));
  return { file: path.join(dir, 'x.lock'), done: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

test('a lock is taken, held against others, and released', () => {
  const { file, done } = tempFile();
  try {
    const release = acquireLock(file, 'job');
    assert.equal(fs.readFileSync(file, 'utf8'), `${process.pid}\n`);
    assert.equal(lockHolder(file), null, 'this process does not count as another holder');
    release();
    assert.ok(!fs.existsSync(file));
  } finally {
    done();
  }
});

test('a live holder refuses with its pid; a dead one is taken over', () => {
  const { file, done } = tempFile();
  try {
    fs.writeFileSync(file, `${process.ppid}\n`);
    assert.equal(lockHolder(file), process.ppid);
    assert.throws(
      () => acquireLock(file, 'job'),
      new RegExp(`^Error: Another job is running \\(pid ${process.ppid}, lock file `),
    );
    fs.writeFileSync(file, '999999999');
    assert.equal(lockHolder(file), null);
    acquireLock(file, 'job')();
    fs.writeFileSync(file, 'garbage');
    assert.equal(lockHolder(file), null);
  } finally {
    done();
  }
});
