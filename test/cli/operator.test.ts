// Operator basics through the real program (`node bin/cnpj-api.js ...`): --version, bad numeric
// flags, a taken port for `serve --workers` and `start`, output piped into a reader that leaves.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLI } from '../helpers/cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = CLI;
const STACK = /\n\s+at /;

interface Run {
  pid: number;
  code: number | null;
  out: string;
  err: string;
  ms: number;
}

/** Runs the CLI to its end (killed after timeoutMs); closeStdout closes our end of its stdout at once. */
function run(args: string[], opts: { timeoutMs?: number; closeStdout?: boolean } = {}): Promise<Run> {
  const started = Date.now();
  // detached: its own process group, so a timeout also kills the cluster workers.
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Nothing may reach the real Receita servers, whatever goes wrong.
    env: { ...process.env, CNPJ_API_SOURCE: 'http://127.0.0.1:9/', CNPJ_API_REGIME_SOURCE: 'none' },
  });
  let out = '';
  let err = '';
  if (opts.closeStdout) child.stdout.destroy();
  else child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (err += b));
  const timer = setTimeout(() => killGroup(child.pid!), opts.timeoutMs ?? 60_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ pid: child.pid!, code, out, err, ms: Date.now() - started });
    }),
  );
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-operator-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('--version prints the version from package.json', async () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const r = await run(['--version']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, `${version}\n`);
  assert.match((await run(['--help'])).out, /--version\s+show the version/);
});

// Concurrent: each case is a program start (~1 s of CPU) that does nothing else.
describe(
  'a bad value of any numeric option stops the command with a message naming the flag',
  { concurrency: 4 },
  () => {
    const cases: Array<[string[], string]> = [
      [['serve', '--port', 'abc'], 'port'],
      [['serve', '--port='], 'port'],
      [['serve', '--port', '65536'], 'port'],
      [['serve', '--workers', '0'], 'workers'],
      [['serve', '--workers', '2.5'], 'workers'],
      [['serve', '--compat-open-account', 'x', '--compat-open-rate', '0'], 'compat-open-rate'],
      [['start', '--port', 'abc'], 'port'],
      [['start', '--companies', '0'], 'companies'],
      [['import', path.join(tmp, 'nowhere'), '--keep', 'abc'], 'keep'],
      [['import', path.join(tmp, 'nowhere'), '--keep', '0'], 'keep'],
      [['download', '--parallel', 'many'], 'parallel'],
      [['download', '--stall-timeout', 'abc'], 'stall-timeout'],
      [['update', '--retries', '-1'], 'retries'],
      [['update', '--retries', '1', '--retries', '2'], 'retries'],
      [['plans', 'set', 'Ouro', '--quota', 'lots'], 'quota'],
    ];
    for (const [i, [args, flag]] of cases.entries()) {
      test(args.join(' '), async () => {
        const dataDir = path.join(tmp, `flags-${i}`);
        const r = await run([...args, '--data-dir', dataDir], { timeoutMs: 30_000 });
        assert.equal(r.code, 1, `exit code 1:\n${r.out}${r.err}`);
        assert.match(r.err, new RegExp(`^error: --${flag} must be `), r.err);
        assert.doesNotMatch(r.out + r.err, /NaN/);
        assert.doesNotMatch(r.err, STACK);
        assert.equal(fs.existsSync(dataDir), false, 'nothing ran: no data directory was created');
      });
    }
  },
);

test('serve --compat-open-account names an account that does not exist: refused, nothing served', async () => {
  const r = await run(
    ['serve', '--port', '0', '--compat-open-account', 'Ninguém', '--data-dir', path.join(tmp, 'open')],
    {
      timeoutMs: 30_000,
    },
  );
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.err, /^error: --compat-open-account: no account named "Ninguém"$/m);
  assert.doesNotMatch(r.err, STACK);
  assert.doesNotMatch(r.err, /serving on/);
});

describe('a port already in use', () => {
  let blocker: net.Server;
  let port = 0;
  before(async () => {
    blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    port = (blocker.address() as net.AddressInfo).port;
  });
  after(() => new Promise<void>((r) => blocker.close(() => r())));

  test('serve --workers 2 exits at once, saying so once, and leaves no worker behind', async () => {
    const r = await run(['serve', '--workers', '2', '--port', String(port), '--data-dir', path.join(tmp, 'serve')], {
      timeoutMs: 30_000,
    });
    assert.equal(r.code, 1, `exit code 1 (${r.ms} ms):\n${r.err}`);
    assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
    const said = r.err.match(new RegExp(`^error: port ${port} on 127\\.0\\.0\\.1 is already in use$`, 'gm')) ?? [];
    assert.equal(said.length, 1, r.err);
    assert.doesNotMatch(r.err, STACK);
    assert.throws(() => process.kill(-r.pid, 0), { code: 'ESRCH' }, 'no process of the group is left');
  });

  test('start refuses before it generates a month or creates the demo account', async () => {
    const dataDir = path.join(tmp, 'start');
    const r = await run(['start', '--port', String(port), '--companies', '50', '--data-dir', dataDir], {
      timeoutMs: 30_000,
    });
    assert.equal(r.code, 1, r.out + r.err);
    assert.match(r.err, new RegExp(`^error: port ${port} on 127\\.0\\.0\\.1 is already in use$`, 'm'));
    assert.doesNotMatch(r.out, /SYNTHETIC|Demo API token/);
    assert.equal(fs.existsSync(dataDir), false, 'the data directory was not touched');
  });
});

test('output into a reader that has gone (`status | head -1`): no EPIPE stack trace', async () => {
  const dataDir = path.join(tmp, 'epipe');
  const r = await run(['status', '--data-dir', dataDir], { closeStdout: true });
  assert.doesNotMatch(r.err, /EPIPE|Unhandled/, r.err);
  assert.doesNotMatch(r.err, STACK);
  assert.equal(r.code, 0, r.err);
});

test('LICENSE: the MIT license that package.json names', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { license: string };
  assert.equal(pkg.license, 'MIT');
  const text = fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
  assert.match(text, /^MIT License\n\nCopyright \(c\) 2026 cnpj-api contributors\n/);
  assert.match(text, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});
