// The container image (issue #39), built by `npm run build:image`'s script and run for real with
// podman, in a storage of the test's own (removed after): the image's facts, then a self-hoster's
// box (import the committed real sample from a read-only folder into a named volume, a token,
// serve with the port published on loopback, stop), then a fleet node in a container following
// a release folder against the test's PostgreSQL. podman's settings for this kind of machine
// (runc, cgroupfs, explicit ulimits) are in the containers.conf the test writes, not in the image.
// Set CNPJ_SKIP_CONTAINER=1 to skip (podman and runc are then not needed).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runImport } from '../../importer/run.ts';
import { RECEITA_MINI } from '../fixtures/index.ts';
import { runCli } from '../helpers/cli.ts';
import { freePorts } from '../helpers/ports.ts';
import { TestServer } from '../importer/download/server.ts';
import { startPgCluster, type PgCluster } from '../helpers/postgres.ts';
import { loadGolden } from '../server/api/golden/file.ts';
import { sampleNamed } from '../server/api/golden/samples.ts';
import { waitFor } from '../server/helpers.ts';

const execFileP = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const SERPRO = '33683111000280';
const LOOKUP = `/api/v1/brazilian_companies/${SERPRO}/company`;
const IMAGE = 'cnpj-api:latest';
const skip = process.env.CNPJ_SKIP_CONTAINER === '1' ? 'CNPJ_SKIP_CONTAINER=1: the image is not built or run' : false;

/**
 * podman's settings for this kind of machine: crun refuses its hybrid cgroup layout (runc does
 * not), systemd is not there to manage cgroups (cgroupfs is), and the default ulimits ask for more
 * than the machine grants, so lower explicit ones are set (runc fails on setting the machine's own
 * hard limits). Everything podman keeps goes under `dir`.
 */
function containersConf(dir: string): string {
  return `[containers]
default_ulimits = ["nofile=16384:16384", "nproc=4096:4096"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "${dir}/events.log"
tmp_dir = "${dir}/libpod"
volume_path = "${dir}/volumes"
`;
}

/** The image's layers and containers in `dir`: vfs needs no overlay mounts, so removing `dir` removes all. */
function storageConf(dir: string): string {
  return `[storage]
driver = "vfs"
graphroot = "${dir}/storage"
runroot = "${dir}/run"
`;
}

interface Answer {
  status: number;
  body: string;
  headers: Headers | null;
}

async function get(url: string, token?: string): Promise<Answer> {
  try {
    const res = await fetch(url, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: await res.text(), headers: res.headers };
  } catch (err) {
    return { status: 0, body: String(err), headers: null };
  }
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

describe('container image (npm run build:image) run with podman', { skip, timeout: 20 * 60_000 }, () => {
  let tmp = '';
  let env: NodeJS.ProcessEnv = {};
  let pg: PgCluster | undefined;
  const golden = loadGolden(sampleNamed('receita-mini').file).answers.find(
    (a) => a.case === `lookup ${SERPRO}: digits`,
  )!;

  async function podman(args: string[], opts: { ok?: boolean } = {}) {
    try {
      const { stdout, stderr } = await execFileP('podman', args, { env, maxBuffer: 32 << 20, timeout: 5 * 60_000 });
      return { code: 0, out: stdout, err: stderr };
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string; message: string };
      if (opts.ok !== false) assert.fail(`podman ${args.join(' ')} failed: ${e.stderr ?? e.message}${e.stdout ?? ''}`);
      return { code: typeof e.code === 'number' ? e.code : -1, out: e.stdout ?? '', err: e.stderr ?? e.message };
    }
  }

  /** `podman stop` of a running container: how long it took and the program's exit status. */
  async function stop(name: string): Promise<{ ms: number; exitCode: number }> {
    const started = performance.now();
    await podman(['stop', '--time', '10', name]);
    const ms = performance.now() - started;
    const exitCode = Number((await podman(['inspect', name, '--format', '{{.State.ExitCode}}'])).out.trim());
    return { ms, exitCode };
  }

  const logsOf = async (name: string) => {
    const r = await podman(['logs', name], { ok: false });
    return `--- podman logs ${name}\n${(r.out + r.err).slice(-4000)}`;
  };

  /** The image's default command in a container, the port published on loopback; its URL once /readyz answers 200. */
  async function serveOn(name: string, args: string[]): Promise<string> {
    const [port] = await freePorts(1);
    const base = `http://127.0.0.1:${port}`;
    await podman(['run', '--detach', '--name', name, ...args, '--publish', `127.0.0.1:${port}:8080`, IMAGE]);
    await waitFor(
      `${name} to answer /readyz 200`,
      async () => ((await get(`${base}/readyz`)).status === 200 ? true : undefined),
      { ms: 60_000, context: () => '' },
    ).catch(async (err: Error) => assert.fail(`${err.message}\n${await logsOf(name)}`));
    return base;
  }

  /** `npm run build:image`'s script; its progress lines, as diagnostics. */
  async function buildImage(): Promise<string> {
    try {
      const { stdout } = await execFileP(process.execPath, ['--import', 'tsx', 'scripts/build-image.ts'], {
        cwd: repo,
        env: { ...env, CNPJ_IMAGE_ENGINE: 'podman' },
        maxBuffer: 64 << 20,
      });
      return stdout
        .split('\n')
        .filter((l) => l.startsWith('[build-image]'))
        .map((l) => `# ${l}`)
        .join('\n');
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`build-image failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
    }
  }

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-container-'));
    fs.writeFileSync(path.join(tmp, 'containers.conf'), containersConf(tmp));
    fs.writeFileSync(path.join(tmp, 'storage.conf'), storageConf(tmp));
    env = {
      ...process.env,
      CONTAINERS_CONF: path.join(tmp, 'containers.conf'),
      CONTAINERS_STORAGE_CONF: path.join(tmp, 'storage.conf'),
    };
    const started = Date.now();
    console.log(await buildImage());
    console.log(`# image built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  after(async () => {
    if (tmp) {
      await podman(['rm', '--all', '--force', '--time', '0'], { ok: false });
      await podman(['volume', 'rm', '--all', '--force'], { ok: false });
      await podman(['rmi', '--all', '--force'], { ok: false });
    }
    await pg?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the image: at most 200 MB, a non-root user, /data, port 8080, SIGTERM, the OCI labels', async () => {
    const [info] = JSON.parse((await podman(['image', 'inspect', IMAGE])).out) as {
      Size: number;
      RepoTags: string[];
      Config: {
        User: string;
        Entrypoint: string[];
        Cmd: string[];
        ExposedPorts: Record<string, unknown>;
        Volumes: Record<string, unknown>;
        StopSignal: string;
        Labels: Record<string, string>;
        WorkingDir: string;
      };
    }[];
    const { version, license } = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as {
      version: string;
      license: string;
    };
    const c = info!.Config;
    console.log(`# image size: ${(info!.Size / 1e6).toFixed(1)} MB; user ${c.User}; tags ${info!.RepoTags.join(', ')}`);
    assert.ok(info!.Size <= 200e6, `${info!.Size} bytes`);
    assert.ok(info!.RepoTags.some((t) => t.endsWith(`/cnpj-api:${version}`)));
    assert.equal(c.User, '10001:10001');
    assert.deepEqual(c.Entrypoint, ['cnpj-api']);
    assert.deepEqual(c.Cmd, ['serve', '--host', '0.0.0.0', '--port', '8080']);
    assert.deepEqual(Object.keys(c.ExposedPorts), ['8080/tcp']);
    assert.deepEqual(Object.keys(c.Volumes), ['/data']);
    assert.equal(c.StopSignal, 'SIGTERM');
    assert.equal(c.WorkingDir, '/data');
    assert.equal(c.Labels['org.opencontainers.image.version'], version);
    assert.equal(c.Labels['org.opencontainers.image.licenses'], license);
    assert.ok(c.Labels['org.opencontainers.image.source']);
    // The user the process runs as, and nothing but the binary to run: no shell.
    assert.equal((await podman(['run', '--rm', IMAGE, '--version'])).out, `${version}\n`);
    const shell = await podman(['run', '--rm', '--entrypoint', '/bin/sh', IMAGE, '-c', 'true'], { ok: false });
    assert.notEqual(shell.code, 0, 'the image has no shell');
    // The SQLite addon was written at build time: a read-only root filesystem still starts. Another
    // uid, which cannot use that folder, writes its own copy to /tmp (src/cli/binary-entry.ts).
    assert.equal((await podman(['run', '--rm', '--read-only', IMAGE, '--version'])).out, `${version}\n`);
    assert.equal((await podman(['run', '--rm', '--user', '12345:12345', IMAGE, '--version'])).out, `${version}\n`);
  });

  test('the same commit builds the same image, byte for byte (the same image ID)', async () => {
    const idOf = async () => (await podman(['image', 'inspect', IMAGE, '--format', '{{.Id}}'])).out.trim();
    const first = await idOf();
    await buildImage();
    assert.equal(await idOf(), first);
  });

  test('one box: import the real sample read-only into a named volume, a token, serve on loopback, stop', async () => {
    const volume = `cnpj-data-${process.pid}`;
    const data = ['--volume', `${volume}:/data`];
    await podman(['volume', 'create', volume]);
    const imported = await podman([
      'run',
      '--rm',
      ...data,
      '--volume',
      `${RECEITA_MINI}:/dumps:ro`,
      IMAGE,
      'import',
      '/dumps',
      '--month',
      '2026-09',
    ]);
    assert.match(imported.out + imported.err, /2026-09/);
    await podman(['run', '--rm', ...data, IMAGE, 'accounts', 'create', '--name', 'Caixa', '--plan', 'Bronze']);
    const token = (
      await podman(['run', '--rm', ...data, IMAGE, 'tokens', 'create', '--account', 'Caixa', '--name', 'ci'])
    ).out.trim();
    assert.match(token, /^cnpj_\w+$/);

    // The health check as docs/container.md gives it, run by hand (no timer: no systemd here).
    const health = ['--health-cmd', '["cnpj-api","probe"]', '--health-interval', 'disable'];
    const base = await serveOn('box', [...data, ...health]);

    const answer = await get(`${base}${LOOKUP}`, token);
    assert.equal(answer.status, 200, answer.body);
    assert.equal(answer.headers!.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(answer.headers!.get('x-registry-month'), '2026-09');
    // Byte for byte the answer the golden file holds for this lookup (test/fixtures/api-golden).
    assert.equal(sha256(answer.body), golden.sha256, answer.body);
    assert.equal((await get(`${base}${LOOKUP}`, 'cnpj_wrong')).status, 401);
    assert.equal((await podman(['healthcheck', 'run', 'box'], { ok: false })).code, 0, 'healthy');
    const probed = await podman(['exec', 'box', 'cnpj-api', 'probe']);
    assert.equal(probed.out.trim(), 'ready: http://127.0.0.1:8080/readyz');

    // Clients in flight while the container stops: an answer begun is finished, none cut off.
    let stopping = false;
    let cut = 0;
    let answered = 0;
    const clients = Array.from({ length: 4 }, async () => {
      while (!stopping) {
        let res: Response;
        try {
          res = await fetch(`${base}${LOOKUP}`, { headers: { Authorization: `Bearer ${token}` } });
        } catch {
          return; // refused or closed before an answer began: the server has stopped listening
        }
        try {
          if (sha256(await res.text()) === golden.sha256) answered++;
        } catch {
          cut++;
        }
      }
    });
    await new Promise((r) => setTimeout(r, 300));
    const stopped = await stop('box');
    stopping = true;
    await Promise.all(clients);
    console.log(
      `# podman stop: ${stopped.ms.toFixed(0)} ms, exit ${stopped.exitCode}; ${answered} answers while stopping`,
    );
    assert.equal(stopped.exitCode, 0, await logsOf('box'));
    assert.ok(stopped.ms < 10_000, `${stopped.ms} ms`);
    assert.equal(cut, 0, 'answers cut off by the stop');
    assert.ok(answered > 0);

    // The same volume served from a read-only root filesystem, /tmp a tmpfs (docs/container.md).
    const readOnly = await serveOn('box-ro', [...data, '--read-only', '--tmpfs', '/tmp']);
    assert.equal(sha256((await get(`${readOnly}${LOOKUP}`, token)).body), golden.sha256);
    assert.equal((await stop('box-ro')).exitCode, 0, await logsOf('box-ro'));

    // And as another user, the volume handed to it (podman's `:U`); the addon then goes to /tmp.
    const other = await serveOn('box-user', ['--user', '12345:12345', '--volume', `${volume}:/data:U`]);
    assert.equal(sha256((await get(`${other}${LOOKUP}`, token)).body), golden.sha256);
    assert.equal((await stop('box-user')).exitCode, 0, await logsOf('box-user'));
  });

  test('update: download the newest month from a mirror on the host and import it into an empty volume', async () => {
    const files = Object.fromEntries(
      fs.readdirSync(RECEITA_MINI).map((f) => [`/mirror/2026-09/${f}`, fs.readFileSync(path.join(RECEITA_MINI, f))]),
    );
    const mirror = await new TestServer({ autoindex: { '/mirror/': 'nginx' }, files }).start();
    try {
      const r = await podman([
        'run',
        '--rm',
        '--network',
        'host',
        '--volume',
        `cnpj-updated-${process.pid}:/data`,
        IMAGE,
        'update',
        '--source',
        `${mirror.url}/mirror/`,
        '--regime-source',
        'none',
        '--allow-partial',
      ]);
      assert.match(r.out + r.err, /2026-09/);
    } finally {
      await mirror.stop();
    }
    const status = await podman([
      'run',
      '--rm',
      '--volume',
      `cnpj-updated-${process.pid}:/data`,
      IMAGE,
      'status',
      '--json',
    ]);
    assert.equal((JSON.parse(status.out) as { active: { month: string } | null }).active?.month, '2026-09', status.out);
  });

  test('fleet mode: a container on the host network follows a read-only release folder against PostgreSQL', async () => {
    const [pgPort, port] = await freePorts(2);
    pg = await startPgCluster({ port: pgPort });
    await pg.createDatabase('fleet');
    const url = pg.tcpUrl('fleet');
    const dir = (name: string) => path.join(tmp, name);
    const cli = async (args: string[]) => {
      const r = await runCli(args);
      assert.equal(r.code, 0, `cnpj-api ${args.join(' ')}: ${r.err}`);
      return r.out.trim();
    };
    // The importing machine, on the host: import once, publish into the fleet's database.
    await cli(['release', 'keygen', '--out', dir('keys')]);
    await runImport({ dataDir: dir('importer'), inputs: [RECEITA_MINI], month: '2026-09', log: () => {} });
    const published = await cli([
      'release',
      'publish',
      '--to',
      dir('releases'),
      '--key',
      dir('keys/release.key'),
      '--data-dir',
      dir('importer'),
      '--database-url',
      url,
    ]);
    // The operator's commands in fleet mode, from a container too: they write to PostgreSQL only.
    const inFleet = async (args: string[]) =>
      (await podman(['run', '--rm', '--network', 'host', IMAGE, ...args, '--database-url', url])).out.trim();
    await inFleet(['accounts', 'create', '--name', 'Frota', '--plan', 'Bronze']);
    const token = await inFleet(['tokens', 'create', '--account', 'Frota', '--name', 'ci']);
    assert.match(token, /^cnpj_\w+$/);

    // The node: an empty /data (the image's volume), the releases and the key mounted read-only.
    const releaseMounts = [
      '--volume',
      `${dir('releases')}:/releases:ro`,
      '--volume',
      `${dir('keys/release.pub')}:/keys/release.pub:ro`,
    ];
    await podman([
      'run',
      '--detach',
      '--name',
      'node1',
      '--network',
      'host',
      ...releaseMounts,
      IMAGE,
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--database-url',
      url,
      '--follow',
      '/releases',
      '--trust',
      '/keys/release.pub',
      '--follow-interval',
      '1s',
    ]);
    const base = `http://127.0.0.1:${port}`;
    const started = performance.now();
    await waitFor(
      'the fleet node to pull the release and answer /readyz 200',
      async () => ((await get(`${base}/readyz`)).status === 200 ? true : undefined),
      { ms: 120_000 },
    ).catch(async (err: Error) => assert.fail(`${err.message}\n${published}\n${await logsOf('node1')}`));
    console.log(
      `# fleet node in a container: ready ${((performance.now() - started) / 1000).toFixed(1)} s after start`,
    );
    const answer = await get(`${base}${LOOKUP}`, token);
    assert.equal(answer.status, 200, answer.body);
    assert.equal(sha256(answer.body), golden.sha256, answer.body);
    // The release the importing machine published, pulled and verified by the node.
    const latest = JSON.parse(fs.readFileSync(dir('releases/latest.json'), 'utf8')) as { release: string };
    assert.equal(answer.headers!.get('x-registry-release'), latest.release);
    const stopped = await stop('node1');
    assert.equal(stopped.exitCode, 0, await logsOf('node1'));
    assert.ok(stopped.ms < 10_000, `${stopped.ms} ms`);

    // `release pull` by hand, into a volume of its own: verified, switched to, shown by status.
    const pulled = ['--volume', `cnpj-pulled-${process.pid}:/data`];
    await podman([
      'run',
      '--rm',
      ...pulled,
      ...releaseMounts,
      IMAGE,
      'release',
      'pull',
      '--from',
      '/releases',
      '--trust',
      '/keys/release.pub',
    ]);
    const status = await podman(['run', '--rm', ...pulled, IMAGE, 'status', '--json']);
    assert.equal((JSON.parse(status.out) as { active: { month: string } | null }).active?.month, '2026-09', status.out);
  });
});
