import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanStaleBuilds, newSnapshotId, startBuild } from '../../../src/storage/snapshots/lifecycle.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-lifecycle-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const registry = (name: string) => path.join(root, name);

test('two imports of the same month within one second get distinct snapshot ids', () => {
  const registryDir = registry('ids');
  fs.mkdirSync(registryDir);
  const now = new Date('2026-10-01T12:00:00.250Z');
  const first = newSnapshotId(registryDir, '2026-09', now);
  assert.equal(first, '2026-09_20261001-120000');
  fs.mkdirSync(path.join(registryDir, `.building-${first}`)); // being built
  const second = newSnapshotId(registryDir, '2026-09', now);
  assert.equal(second, '2026-09_20261001-120000-2');
  fs.mkdirSync(path.join(registryDir, second)); // published
  assert.equal(newSnapshotId(registryDir, '2026-09', now), '2026-09_20261001-120000-3');
});

test("a stale build cleaned away in the same second keeps its id: a killed importer's late writers cannot open the new build's files", () => {
  const registryDir = registry('reuse');
  const now = new Date('2026-10-01T12:00:00.250Z');
  const killed = newSnapshotId(registryDir, '2026-09', now);
  fs.mkdirSync(path.join(registryDir, `.building-${killed}`), { recursive: true }); // no lock: its importer is gone
  const removed = cleanStaleBuilds(registryDir);
  assert.deepEqual(removed, [`.building-${killed}`]);
  assert.equal(newSnapshotId(registryDir, '2026-09', now, removed), `${killed}-2`);
});

test("a build's lock names its importer; a live one refuses a new import, dead or missing ones are cleaned away", () => {
  const registryDir = registry('stale');
  const mine = startBuild(registryDir, '2026-09_20261001-120000');
  assert.equal(fs.readFileSync(path.join(mine, 'importer.pid'), 'utf8'), `${process.pid}\n`);

  const live = path.join(registryDir, '.building-2026-08_20260901-120000');
  fs.mkdirSync(live);
  fs.writeFileSync(path.join(live, 'importer.pid'), `${process.ppid}\n`); // the test runner: alive
  assert.throws(
    () => cleanStaleBuilds(registryDir),
    new RegExp(`another import \\(pid ${process.ppid}\\) is running in `),
  );
  assert.ok(fs.existsSync(live), 'a live build is left alone');

  fs.writeFileSync(path.join(live, 'importer.pid'), '999999999'); // gone
  fs.mkdirSync(path.join(registryDir, '.building-2026-07_20260801-120000')); // died before its lock
  assert.deepEqual(cleanStaleBuilds(registryDir).sort(), [
    '.building-2026-07_20260801-120000',
    '.building-2026-08_20260901-120000',
    '.building-2026-09_20261001-120000', // this process's own: not another import
  ]);
  assert.deepEqual(fs.readdirSync(registryDir), []);
});
