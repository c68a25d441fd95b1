// The API benchmark still runs end to end, in both modes, on a tiny registry: it builds the
// registry, authenticates its lookups (all 200) and prints every line of its report.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-bench-test-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function bench(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench-api.ts', '--data-dir', dataDir, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_CPU_PROF: '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

// Short enough for a test (one run of the benchmark takes about 6 s, mostly starting its processes
// and importing the registry); the numbers mean nothing, the lines must be there.
const SMALL = ['--companies', '300', '--sample', '100', '--duration', '0.3', '--warmup', '0'];

function assertReport(out: string): void {
  assert.match(
    out,
    /^API lookups : +[\d,]+ req\/s {2}p50 [\d.]+ ms {2}p99 [\d.]+ ms .* errors 0 {2}\([\d,]+ requests, statuses \{"200":\d+\}\)$/m,
  );
  assert.match(out, /^bare 2 KB {3}: +[\d,]+ req\/s .* errors 0 /m);
  assert.match(out, /^server RSS {2}: \d+ MiB/m);
  for (const label of ['per lookup  ', 'per bare    ']) {
    assert.match(
      out,
      new RegExp(
        `^${label}: [\\d.]+ µs CPU \\([\\d.]+ in the kernel\\); page faults [\\d.]+ minor, [\\d.]+ major; [\\d.]+ reads \\([\\d,]+ B\\), [\\d.]+ writes$`,
        'm',
      ),
    );
  }
  assert.match(out, /^own code {4}: -?[\d.]+ µs CPU per lookup = API − bare/m);
}

const canPin = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).error === undefined && os.availableParallelism() >= 2;

// One run only, to keep the test short: the pinned mode where it can run (it is the one with
// more moving parts: taskset, the warm-up handshake), the default mode elsewhere.
test(
  canPin
    ? '--pinned: one server process on core 0, the load on core 1'
    : 'default mode (no taskset or 2 cores here for --pinned)',
  { timeout: 120_000 },
  async () => {
    const r = await bench(canPin ? ['--pinned', ...SMALL] : SMALL);
    assert.equal(r.code, 0, r.err);
    if (canPin)
      assert.match(
        r.out,
        /^pinned: server \(1 process\) on core 0, load generator on core 1; load: 16 keep-alive connections, warm-up: one pass over 100 CNPJs/m,
      );
    else assert.match(r.out, /^server: \d+ process\(es\)/m);
    assertReport(r.out);
  },
);

test('--pinned refuses more than one server process', async () => {
  const r = await bench(['--pinned', '--workers', '2']);
  assert.equal(r.code, 1);
  assert.match(r.err, /--pinned/);
});
