// A pull into a data dir whose disk cannot hold the release is refused before any byte is
// fetched, saying how much is free and how much is needed; the served month stays. The small
// disk is a real one: a 70 MB tmpfs mounted for the test (the tests run as root, as CI does).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { generateDump } from '../../../src/demo/generate.ts';
import { runImport } from '../../../importer/run.ts';
import { runCli } from '../../helpers/cli.ts';

let tmp: string;
let small: string;
let mounted = false;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-release-disk-'));
  small = path.join(tmp, 'small');
  fs.mkdirSync(small);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=70m', 'tmpfs', small]);
    mounted = true;
  } catch (err) {
    throw new Error(`this test mounts a small tmpfs and must run as root (CI does): ${(err as Error).message}`, {
      cause: err,
    });
  }
  await generateDump({ companies: 1000, out: path.join(tmp, 'm0'), seed: 3, month: '2026-09' });
  await generateDump({ companies: 40000, out: path.join(tmp, 'm1'), seed: 4, month: '2026-10' });
  await runImport({ dataDir: path.join(tmp, 'A'), inputs: [path.join(tmp, 'm0')], search: false, log: () => {} });
  assert.equal((await runCli(['release', 'keygen', '--out', path.join(tmp, 'keys')])).code, 0);
});

after(() => {
  if (mounted) execFileSync('umount', [small]);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args);

test('a release larger than the free disk is refused before anything is fetched', async () => {
  const key = path.join(tmp, 'keys', 'release.key');
  const trust = path.join(tmp, 'keys', 'release.pub');
  // A small month fits: the node serves it.
  let r = await cli(
    'release',
    'publish',
    '--to',
    path.join(tmp, 'pub'),
    '--key',
    key,
    '--data-dir',
    path.join(tmp, 'A'),
  );
  assert.equal(r.code, 0, r.err);
  const small0 = r.out.trim();
  r = await cli('release', 'pull', '--from', path.join(tmp, 'pub'), '--trust', trust, '--data-dir', small);
  assert.equal(r.code, 0, r.err);

  // A month forty times larger does not (the release plus 64 MB of slack).
  await runImport({
    dataDir: path.join(tmp, 'A'),
    inputs: [path.join(tmp, 'm1')],
    search: false,
    history: false,
    allowPartial: true, // far more rows than the month before: not a shrink, but say so anyway
    log: () => {},
  });
  r = await cli('release', 'publish', '--to', path.join(tmp, 'pub'), '--key', key, '--data-dir', path.join(tmp, 'A'));
  assert.equal(r.code, 0, r.err);
  const big = JSON.parse(fs.readFileSync(path.join(tmp, 'pub', 'latest.json'), 'utf8')) as { release: string };
  assert.notEqual(big.release, small0);
  r = await cli('release', 'pull', '--from', path.join(tmp, 'pub'), '--trust', trust, '--data-dir', small);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /not enough disk space in .*small\/registry: [\d.]+ GB free, release 2026-10-[0-9a-f]{16} needs about [\d.]+ GB more/,
  );
  assert.match(r.err, /the served month is unchanged/);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  // Nothing was fetched: no staging folder, and the node still serves the small month.
  assert.deepEqual(
    fs.readdirSync(path.join(small, 'registry')).filter((n) => n.startsWith('.pull-')),
    [],
  );
  const st = await cli('status', '--json', '--data-dir', small);
  assert.equal((JSON.parse(st.out) as { active: { release: string } }).active.release, small0);
});
