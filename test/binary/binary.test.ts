// The standalone binary (dist/cnpj-api): built by `npm run build:binary`'s script into a temp
// folder (the clone is left as it was) and run from an empty folder with an empty environment
// (HOME alone points into the temp folder, so the extracted addon lands there), as a self-hoster
// would run it. Set CNPJ_SKIP_BINARY=1 to skip (the first build compiles SQLite for Node 24:
// ~2-3 minutes; later builds reuse the cache outside the clone, see scripts/binary/util.ts, and
// take seconds).
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { RECEITA_MINI } from '../fixtures/index.ts';

const execFileP = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SERPRO = '33683111000280';

const skip = process.env.CNPJ_SKIP_BINARY === '1' ? 'CNPJ_SKIP_BINARY=1: standalone binary not built or tested' : false;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('standalone binary (dist/cnpj-api)', { skip, timeout: 20 * 60_000 }, () => {
  let tmp = '';
  let bin = ''; // the binary, built outside the repository
  let cwd = ''; // empty working folder
  let env: NodeJS.ProcessEnv = {};
  let help = '';
  const have = new Set<string>();

  async function cli(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Run> {
    const child = execFileP(bin, args, { cwd, env: opts.env ?? env, maxBuffer: 16 << 20, timeout: 5 * 60_000 });
    if (opts.input !== undefined) {
      child.child.stdin?.end(opts.input);
    }
    try {
      const { stdout, stderr } = await child;
      return { code: 0, stdout, stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string; message: string };
      if (typeof e.code !== 'number') throw err;
      return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
    }
  }

  async function ok(args: string[], opts?: { input?: string }): Promise<string> {
    const r = await cli(args, opts);
    assert.equal(r.code, 0, `cnpj-api ${args.join(' ')} exited ${r.code}\n${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  /** Fails the step when the binary's --help does not list a command it uses. */
  function needs(...names: string[]): void {
    for (const name of names) if (!have.has(name)) assert.fail(`\`cnpj-api ${name}\` is missing from --help:\n${help}`);
  }

  before(async () => {
    const started = Date.now();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-bin-'));
    bin = path.join(tmp, 'bin', 'cnpj-api');
    try {
      await execFileP(process.execPath, ['--import', 'tsx', 'scripts/build-binary.ts'], {
        cwd: repo,
        maxBuffer: 64 << 20,
        env: { ...process.env, CNPJ_BINARY_OUT: bin },
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`build-binary failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
    }
    console.log(`# binary built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    cwd = path.join(tmp, 'work');
    fs.mkdirSync(cwd);
    fs.mkdirSync(path.join(tmp, 'home'));
    env = { HOME: path.join(tmp, 'home') };
  });

  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('--help lists the commands; the addon is extracted once to ~/.cache/cnpj-api', async () => {
    const started = process.hrtime.bigint();
    help = await ok(['--help']);
    console.log(
      `# --help took ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms (first start, addon extracted)`,
    );
    assert.match(help, /cnpj-api <command>/);
    for (const m of help.matchAll(/^\s+cnpj-api ([a-z][\w-]*)/gm)) have.add(m[1]!);
    assert.ok(have.has('status'), help);
    const cacheDir = path.join(tmp, 'home', '.cache', 'cnpj-api');
    const files = fs.readdirSync(cacheDir);
    assert.equal(files.length, 1, files.join(', '));
    assert.match(files[0]!, /^better_sqlite3-[0-9a-f]{16}\.node$/);
    assert.deepEqual(fs.readdirSync(cwd), [], 'nothing written to the working folder');
  });

  test('--version prints the version from package.json', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string };
    assert.equal(await ok(['--version']), `${version}\n`);
  });

  test('status --data-dir ./data creates app.db in the working folder', async () => {
    const out = await ok(['status', '--data-dir', './data']);
    assert.match(out, /no registry imported yet/);
    assert.ok(fs.existsSync(path.join(cwd, 'data', 'app.db')));
    const json = JSON.parse(await ok(['status', '--data-dir', './data', '--json'])) as { dataDir: string };
    assert.equal(json.dataDir, path.join(cwd, 'data'));
  });

  test('an unknown command fails with one sentence on stderr', async () => {
    const r = await cli(['no-such-command']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /^error: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  });

  test('two processes starting at once on a fresh cache both work', async () => {
    const home = path.join(tmp, 'home-race');
    fs.mkdirSync(home);
    const runs = await Promise.all(
      [0, 1, 2].map(() => cli(['status', '--data-dir', `./race-${Math.random()}`], { env: { HOME: home } })),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const files = fs.readdirSync(path.join(home, '.cache', 'cnpj-api'));
    assert.equal(files.length, 1, `one addon file, no temp files left: ${files.join(', ')}`);
    for (const d of fs.readdirSync(cwd)) if (d.startsWith('race-')) fs.rmSync(path.join(cwd, d), { recursive: true });
  });

  test('falls back to the temp folder when the home cache cannot be written', async () => {
    const tmpdir = path.join(tmp, 'tmpdir');
    fs.mkdirSync(tmpdir);
    // HOME is a file: no ~/.cache below it, whoever runs the test (root included).
    const fileHome = path.join(tmp, 'home-is-a-file');
    fs.writeFileSync(fileHome, '');
    const r = await cli(['--help'], { env: { HOME: fileHome, TMPDIR: tmpdir } });
    assert.equal(r.code, 0, r.stderr);
    const uid = process.getuid?.() ?? 0;
    const dir = path.join(tmpdir, `cnpj-api-${uid}`);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.readdirSync(dir).filter((f) => f.endsWith('.node')).length, 1);
  });

  // ---- The commands, end to end, in order: each step needs the ones before it. ----
  let imported = false;
  let token = '';
  let baseUrl = '';
  let server: ChildProcess | undefined;

  test('import test/fixtures/receita-mini', async () => {
    needs('import');
    // The folder name carries no month; the importer's own tests use 2026-09 for this sample.
    await ok(['import', RECEITA_MINI, '--month', '2026-09', '--data-dir', './data']);
    const status = JSON.parse(await ok(['status', '--data-dir', './data', '--json'])) as { active: unknown };
    assert.ok(status.active, 'a snapshot is active after import');
    imported = true;
  });

  test("a second month is compared with the first in the binary's own child process (__import-history)", async () => {
    needs('import', 'history');
    const out = await ok(['import', RECEITA_MINI, '--month', '2026-10', '--skip-search', '--data-dir', './data']);
    assert.match(out, /\n {2}history: 2026-10 recorded against 2026-09: 0 changes/);
    assert.match(await ok(['history', 'status', '--data-dir', './data']), /\n2026-10 +2026-09 +0 +0 +0 /);
  });

  test('create an account and a token', async () => {
    needs('accounts', 'tokens');
    await ok(['accounts', 'create', '--name', 'Binario', '--plan', 'Diamante', '--data-dir', './data']);
    token = (
      await ok([
        'tokens',
        'create',
        '--account',
        'Binario',
        '--name',
        'binary-test',
        '--expires',
        'never',
        '--data-dir',
        './data',
      ])
    ).trim();
    assert.match(token, /^cnpj_[0-9A-Za-z]+$/);
  });

  test('serve answers the company lookup with the SERPRO record', async () => {
    needs('serve');
    assert.ok(imported && token, 'the import and token steps above failed');
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', './data'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout?.on('data', (d) => (output += d));
    server.stderr?.on('data', (d) => (output += d));
    await waitForHttp(`${baseUrl}/healthz`, server, () => output);
    const res = await fetch(`${baseUrl}/api/v1/brazilian_companies/${SERPRO}/company`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await res.text();
    assert.equal(res.status, 200, body);
    assert.match(body, new RegExp(SERPRO));
    assert.match(body, /SERVICO FEDERAL DE PROCESSAMENTO DE DADOS|SERPRO/i);
    const unauth = await fetch(`${baseUrl}/api/v1/brazilian_companies/${SERPRO}/company`);
    assert.equal(unauth.status, 401);
    await stop(server);
    server = undefined;
  });

  after(async () => {
    if (server) await stop(server);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within 30 s:\n${output()}`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
