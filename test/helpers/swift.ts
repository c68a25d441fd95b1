// A throwaway S3 server for one test file: OpenStack Swift with its s3api middleware (a real S3
// implementation, from Debian's packages), on loopback ports in a temp dir. Memcached, the
// account, container and object servers and the proxy run as children; their configs, rings,
// data and logs all live in the one dir, which stop() removes. Stop it from the file's `after`
// hook; a process that exits before its hooks run still kills the servers (the exit handler).
//
// What it takes: one ring per server kind, one device each (built as swift-ring-builder builds
// them, in one Python run); every server with `workers = 0` (one process, no forked worker to
// orphan) and `-v` (logs to stderr, which goes to a file here: Swift otherwise logs to syslog
// only); the proxy's pipeline with `slo` (without it s3api answers multipart uploads with 501)
// and tempauth, whose user `test:tester` / `testing` is the S3 access key / secret. As root the
// servers would switch to the `swift` user, who cannot read our dir: `user` is whoever runs the
// tests. Swift reads /etc/swift/swift.conf whatever `swift_dir` says (see findSwiftBinaries).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { canConnect, freePorts } from './ports.ts';

const run = promisify(execFile);

/** Swift reads this file from here whatever a server's swift_dir says (its hash path prefix/suffix and storage policies). */
export const SWIFT_CONF = '/etc/swift/swift.conf';

const BINARIES: Record<string, string> = {
  'swift-account-server': 'swift-account',
  'swift-container-server': 'swift-container',
  'swift-object-server': 'swift-object',
  'swift-proxy-server': 'swift-proxy',
  memcached: 'memcached',
};
export const SWIFT_PACKAGES = ['swift', 'swift-proxy', 'swift-object', 'swift-container', 'swift-account', 'memcached'];

/**
 * Builds one ring per server kind (argv: the folder, then `kind=port` each): 2^8 partitions, one
 * replica, one device `d1` on 127.0.0.1:port. What `swift-ring-builder <kind>.builder create 8 1 1`,
 * `add r1z1-127.0.0.1:<port>/d1 1` and `rebalance` do, written as `<kind>.ring.gz`.
 */
const RING_SCRIPT = `
import sys
from swift.common.ring import RingBuilder
for spec in sys.argv[2:]:
    kind, port = spec.split('=')
    builder = RingBuilder(8, 1, 1)
    builder.add_dev({'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port), 'device': 'd1', 'weight': 1})
    builder.rebalance()
    builder.get_ring().save(sys.argv[1] + '/' + kind + '.ring.gz')
`;

/** The Python the Swift scripts run with (their #! line): the one that has the swift library. */
function swiftPython(script: string): string {
  const first = fs.readFileSync(script, 'utf8').split('\n', 1)[0];
  const m = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(first);
  if (!m) throw new Error(`${script} has no #! line`);
  // `#!/usr/bin/env python3` names the interpreter second.
  return path.basename(m[1]) === 'env' && m[2] ? (onPath(m[2]) ?? m[2]) : m[1];
}

export interface SwiftServer {
  /** The S3 endpoint (path-style), e.g. http://127.0.0.1:41234. */
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** The region s3api signs for (its `location`). */
  readonly region: string;
  /** The temp dir holding configs, rings, data and logs. */
  readonly dir: string;
  /** From the call to the first answer of the proxy, in milliseconds. */
  readonly startupMs: number;
  /** Creates a bucket (a Swift container of the test account). */
  createBucket(name: string): Promise<void>;
  /** Kills every process started and removes the dir; safe to call twice. */
  stop(): Promise<void>;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Every binary the server needs, or a clear error naming the Debian packages to install. */
export function findSwiftBinaries(): Record<string, string> {
  const found: Record<string, string> = {};
  const missing: string[] = [];
  for (const [bin, pkg] of Object.entries(BINARIES)) {
    const file = onPath(bin);
    if (file) found[bin] = file;
    else missing.push(`${bin} (package "${pkg}")`);
  }
  if (missing.length > 0) {
    throw new Error(
      `OpenStack Swift is not installed: no ${missing.join(', ')} on PATH. The S3 tests need Debian's packages ` +
        `(apt-get install --no-install-recommends ${SWIFT_PACKAGES.join(' ')}).`,
    );
  }
  if (!fs.existsSync(SWIFT_CONF)) {
    // The swift package ships this file; a system without it (removed, or a bare container) gets a
    // minimal one here, as test setup: a hash path suffix is all a throwaway cluster needs.
    try {
      fs.mkdirSync(path.dirname(SWIFT_CONF), { recursive: true });
      fs.writeFileSync(SWIFT_CONF, '[swift-hash]\nswift_hash_path_suffix = cnpj-api-tests\n', { flag: 'wx' });
    } catch (err) {
      throw new Error(
        `${SWIFT_CONF} is missing and could not be created (${(err as Error).message}): Swift reads it from ` +
          `there; reinstall Debian's "swift" package or create it with a [swift-hash] swift_hash_path_suffix.`,
        { cause: err },
      );
    }
  }
  return found;
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Without eventlet's DNS module (dnspython, a third of a server's import time): every address here
 * is an IP, so the plain resolver does.
 */
const pythonEnv = { ...process.env, EVENTLET_NO_GREENDNS: 'yes' };

const ACCESS_KEY = 'test:tester';
const SECRET = 'testing';

interface Child {
  name: string;
  proc: ChildProcess;
  log: string;
  exited: boolean;
}

/** Starts memcached and a one-device Swift with s3api; retried on fresh ports when one was taken meanwhile. */
export async function startSwift(): Promise<SwiftServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce();
    } catch (err) {
      if (attempt < 3 && /Address already in use|Could not bind/i.test((err as Error).message)) continue;
      throw err;
    }
  }
}

async function startOnce(): Promise<SwiftServer> {
  const bins = findSwiftBinaries();
  const python = swiftPython(bins['swift-proxy-server']);
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-swift-'));
  const etc = path.join(dir, 'etc');
  const devices = path.join(dir, 'srv');
  const logs = path.join(dir, 'log');
  for (const d of [etc, path.join(devices, 'd1'), logs]) fs.mkdirSync(d, { recursive: true });
  const [memcachePort, accountPort, containerPort, objectPort, proxyPort] = await freePorts(5);
  const user = os.userInfo().username;

  const children: Child[] = [];
  let removed = false;
  let stopping: Promise<void> | undefined;
  const killAll = (signal: NodeJS.Signals) => {
    for (const c of children) {
      if (c.exited) continue;
      try {
        c.proc.kill(signal);
      } catch {
        // already gone
      }
    }
  };
  const unhook = () => {
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  // Last resort for a process that exits without running its `after` hooks (or dies in the middle
  // of stop()), or is interrupted: the servers, in sessions of their own (Swift calls setsid),
  // would outlive it otherwise.
  const onExit = () => {
    if (removed) return;
    removed = true;
    killAll('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    onExit();
    unhook();
    process.kill(process.pid, signal); // now to the default action (or the next such handler)
  };
  process.on('exit', onExit);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const stop = () =>
    (stopping ??= (async () => {
      const exits = children
        .filter((c) => !c.exited)
        .map((c) => new Promise<void>((resolve) => c.proc.once('exit', () => resolve())));
      killAll('SIGTERM');
      const timer = setTimeout(() => killAll('SIGKILL'), 5_000);
      await Promise.all(exits);
      clearTimeout(timer);
      if (!removed) fs.rmSync(dir, { recursive: true, force: true });
      removed = true;
      unhook();
    })());

  const launch = (name: string, file: string, args: string[]) => {
    const log = path.join(logs, `${name}.log`);
    const fd = fs.openSync(log, 'a');
    const proc = spawn(file, args, { stdio: ['ignore', fd, fd], env: pythonEnv });
    fs.closeSync(fd);
    const child: Child = { name, proc, log, exited: false };
    proc.once('exit', () => (child.exited = true));
    proc.once('error', () => (child.exited = true));
    children.push(child);
  };
  const failIfExited = () => {
    const dead = children.find((c) => c.exited);
    if (dead) throw new Error(`swift test server: ${dead.name} exited while starting:\n${tail(dead.log)}`);
  };

  const common = (port: number) =>
    [
      '[DEFAULT]',
      `swift_dir = ${etc}`,
      `devices = ${devices}`,
      'mount_check = false',
      'bind_ip = 127.0.0.1',
      `bind_port = ${port}`,
      // Fail fast when the port was taken since freePorts() (Swift retries binding for 30 s).
      'bind_timeout = 2',
      'workers = 0',
      `user = ${user}`,
      'log_level = INFO',
    ].join('\n');
  const backend = (kind: string, port: number) =>
    `${common(port)}\n\n[pipeline:main]\npipeline = ${kind}-server\n\n[app:${kind}-server]\nuse = egg:swift#${kind}\n`;
  const proxyConf = `${common(proxyPort)}

[pipeline:main]
pipeline = catch_errors proxy-logging cache s3api tempauth slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:proxy-logging]
use = egg:swift#proxy_logging

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${memcachePort}

[filter:s3api]
use = egg:swift#s3api
location = us-east-1

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = ${SECRET} .admin

[filter:slo]
use = egg:swift#slo

[filter:dlo]
use = egg:swift#dlo
`;
  const confs: Record<string, string> = {
    account: backend('account', accountPort),
    container: backend('container', containerPort),
    object: backend('object', objectPort),
    proxy: proxyConf,
  };
  for (const [name, text] of Object.entries(confs)) fs.writeFileSync(path.join(etc, `${name}-server.conf`), text);

  // The rings, in one Python process using the library behind swift-ring-builder: the command
  // takes create, add and rebalance as three runs, nine Python starts (~0.8 s of CPU each) for
  // three rings, which made startup several times slower on a busy two-core machine.
  const buildRings = async () => {
    const specs = [`account=${accountPort}`, `container=${containerPort}`, `object=${objectPort}`];
    try {
      await run(python, ['-c', RING_SCRIPT, etc, ...specs], { encoding: 'utf8', env: pythonEnv });
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      throw new Error(`building the Swift rings: ${(e.stderr || e.stdout || e.message).trim()}`, { cause: err });
    }
  };

  try {
    launch('memcached', bins.memcached, [
      '-l',
      '127.0.0.1',
      '-p',
      String(memcachePort),
      '-U',
      '0',
      '-m',
      '16',
      ...(process.getuid?.() === 0 ? ['-u', 'root'] : []),
    ]);
    // The storage servers do not read the rings; the proxy does, so it starts once they exist.
    for (const kind of ['account', 'container', 'object']) {
      launch(kind, bins[`swift-${kind}-server`], [path.join(etc, `${kind}-server.conf`), '-v']);
    }
    await buildRings();
    launch('proxy', bins['swift-proxy-server'], [path.join(etc, 'proxy-server.conf'), '-v']);

    const endpoint = `http://127.0.0.1:${proxyPort}`;
    const deadline = Date.now() + 60_000;
    const ports = [memcachePort, accountPort, containerPort, objectPort];
    for (;;) {
      failIfExited();
      if (Date.now() > deadline) {
        throw new Error(
          `swift test server: no answer within 60 s:\n${children.map((c) => `${c.name}: ${tail(c.log, 5)}`).join('\n')}`,
        );
      }
      const backendsUp = (await Promise.all(ports.map(canConnect))).every(Boolean);
      if (backendsUp) {
        // The proxy's /info, then a tempauth login (which needs memcached): ready for requests.
        const info = await fetch(`${endpoint}/info`).catch(() => undefined);
        if (info?.ok) {
          await info.arrayBuffer();
          await authenticate(endpoint);
          break;
        }
        await info?.arrayBuffer();
      }
      await sleep(100);
    }
    const startupMs = performance.now() - started;

    return {
      endpoint,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET,
      region: 'us-east-1',
      dir,
      startupMs,
      async createBucket(name) {
        if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name)) throw new Error(`not an S3 bucket name: ${name}`);
        const { token, storageUrl } = await authenticate(endpoint);
        const res = await fetch(`${storageUrl}/${name}`, { method: 'PUT', headers: { 'X-Auth-Token': token } });
        await res.arrayBuffer();
        if (res.status !== 201 && res.status !== 202) throw new Error(`creating bucket ${name}: HTTP ${res.status}`);
      },
      stop,
    };
  } catch (err) {
    const logs = children.map((c) => `--- ${c.name}\n${tail(c.log, 5)}`).join('\n');
    await stop().catch(() => {});
    if (/exited while starting|no answer/.test((err as Error).message)) throw err;
    throw new Error(`${(err as Error).message}\n${logs}`, { cause: err });
  }
}

/** A tempauth token and the account's URL (Swift's own API, beside S3). */
async function authenticate(endpoint: string): Promise<{ token: string; storageUrl: string }> {
  const res = await fetch(`${endpoint}/auth/v1.0`, { headers: { 'X-Auth-User': ACCESS_KEY, 'X-Auth-Key': SECRET } });
  await res.arrayBuffer();
  const token = res.headers.get('x-auth-token');
  const storageUrl = res.headers.get('x-storage-url');
  if (!res.ok || !token || !storageUrl)
    throw new Error(`swift test server: tempauth login answered HTTP ${res.status}`);
  return { token, storageUrl };
}
