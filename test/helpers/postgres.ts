// A throwaway PostgreSQL cluster for one test file: initdb into a temp dir, a server that listens on
// a Unix socket in that dir only (no TCP port to collide with another test or a real server), and
// databases created on demand. Stop it from the file's `after` hook; a process that dies before
// its hooks run still stops the server and removes the dir (the exit handler below).
//
// Debian's `postgresql` package puts initdb and pg_ctl in /usr/lib/postgresql/<version>/bin, off
// PATH. initdb refuses to run as root, so as root (CI) the binaries run as the `postgres` user.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

export interface PgCluster {
  /** The data dir, which also holds the server's socket and log. */
  readonly dir: string;
  /** The server's major version (the /usr/lib/postgresql/<version> it runs from). */
  readonly version: string;
  /** initdb plus `pg_ctl -w start`, in milliseconds. */
  readonly startupMs: number;
  /** A connection URL for a database of this cluster (which need not exist yet). */
  url(database: string): string;
  /**
   * Creates a database and returns its URL. `icuLocale` (e.g. 'pt-BR') gives it that ICU locale
   * instead of the cluster's C, as a production database would have one.
   */
  createDatabase(name: string, options?: { icuLocale?: string }): Promise<string>;
  /** Stops the server (fast shutdown) and removes the dir; safe to call twice. */
  stop(): Promise<void>;
  /** Stops the server only (fast shutdown: its connections are cut), keeping the data: an outage. */
  stopServer(): Promise<void>;
  /** Starts the server again on the same data after stopServer(). */
  startServer(): Promise<void>;
  /** With `port`: a URL over TCP on 127.0.0.1 (what a multi-host URL names). */
  tcpUrl(database: string): string;
  /** `kill -9` of the postmaster (its backends notice and exit): a crash, no shutdown. */
  kill(): void;
  /** A standby (after startStandby) becomes a primary: `pg_ctl promote -w`. */
  promote(): Promise<void>;
}

export interface PgClusterOptions {
  /** Also listen on 127.0.0.1:port (replication and multi-host URLs need TCP). */
  port?: number;
  /** Extra `-c name=value` settings for the server. */
  settings?: Record<string, string>;
}

/** The newest installed server's bin dir, or a clear error naming the package to install. */
export function findPgBin(root = PG_ROOT): { bin: string; version: string } {
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      `PostgreSQL is not installed: no ${root}/<version>/bin/initdb. The PostgreSQL tests need Debian's ` +
        `"postgresql" package (apt-get install --no-install-recommends postgresql; .ci/run installs it).`,
    );
  }
  return { bin: path.join(root, versions[0], 'bin'), version: versions[0] };
}

const asRoot = process.getuid?.() === 0;

/** The argv that runs a server binary: as the `postgres` user when we are root. */
function command(bin: string, tool: string, args: string[]): [string, string[]] {
  const exe = path.join(bin, tool);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
}

async function pgTool(bin: string, tool: string, args: string[]): Promise<void> {
  const [file, argv] = command(bin, tool, args);
  try {
    await run(file, argv, { encoding: 'utf8' });
  } catch (err) {
    const e = err as Error & { stderr?: string; stdout?: string };
    throw new Error(`${tool} failed: ${(e.stderr || e.stdout || e.message).trim()}`, { cause: err });
  }
}

function logTail(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, 'server.log'), 'utf8').trim().split('\n').slice(-10).join('\n');
  } catch {
    return '(no server log)';
  }
}

/** Starts a fresh cluster in a new temp dir. The caller stops it (`after(() => cluster.stop())`). */
export function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  return startCluster(options, (bin, dir) =>
    // -N: no fsync of the new files (a throwaway cluster); the server itself runs with fsync on.
    pgTool(bin, 'initdb', ['-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '-N']),
  );
}

/**
 * A streaming-replication standby of `primary` (which must listen on TCP): `pg_basebackup -R`
 * into a new temp dir, started on `port`. Its own commits wait for no standby.
 */
export function startStandby(primary: PgCluster, port: number): Promise<PgCluster> {
  const from = new URL(primary.tcpUrl('postgres'));
  return startCluster({ port, settings: { synchronous_standby_names: "''" } }, (bin, dir) =>
    pgTool(bin, 'pg_basebackup', [
      '-D',
      dir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '-h',
      from.hostname,
      '-p',
      from.port,
      '-U',
      'postgres',
    ]),
  );
}

async function startCluster(
  clusterOptions: PgClusterOptions,
  create: (bin: string, dir: string) => Promise<void>,
): Promise<PgCluster> {
  const { bin, version } = findPgBin();
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-pg-'));
  let running = false;
  let stopped = false;
  const { port } = clusterOptions;

  // Last resort for a process that exits without running its `after` hooks (an uncaught error):
  // an immediate shutdown, synchronously, then the dir goes.
  const onExit = () => {
    if (stopped) return;
    stopped = true;
    if (running) {
      const [file, argv] = command(bin, 'pg_ctl', ['stop', '-D', dir, '-m', 'immediate', '-w']);
      try {
        execFileSync(file, argv, { stdio: 'ignore' });
      } catch {
        // the server may already be gone; the dir is removed anyway
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', onExit);

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    try {
      if (running) await pgTool(bin, 'pg_ctl', ['stop', '-D', dir, '-m', 'fast', '-w']);
    } finally {
      running = false;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  const settings: Record<string, string> = {
    listen_addresses: port === undefined ? "''" : '127.0.0.1',
    ...(port !== undefined && { port: String(port) }),
    unix_socket_directories: `'${dir}'`,
    fsync: 'on',
    ...clusterOptions.settings,
  };
  const options = Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
  const startIt = async () => {
    try {
      await pgTool(bin, 'pg_ctl', ['start', '-w', '-D', dir, '-l', path.join(dir, 'server.log'), '-o', options]);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${logTail(dir)}`, { cause: err });
    }
  };

  try {
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      fs.chownSync(dir, uid, gid);
    }
    await create(bin, dir);
    fs.chmodSync(dir, 0o700); // pg_basebackup may leave 0750, which the server accepts too
    running = true; // from here a failed start may still have left a server to stop
    await startIt();
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  const startupMs = performance.now() - started;

  const url = (database: string) =>
    `postgres://postgres@/${encodeURIComponent(database)}?host=${encodeURIComponent(dir)}` +
    (port === undefined ? '' : `&port=${port}`);
  return {
    dir,
    version,
    startupMs,
    url,
    async createDatabase(name, options = {}) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const locale = options.icuLocale;
      if (locale !== undefined && !/^[A-Za-z0-9-]+$/.test(locale)) throw new Error(`not an ICU locale: ${locale}`);
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(
          locale === undefined
            ? `CREATE DATABASE ${name}`
            : `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${locale}'`,
        );
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
    async stopServer() {
      if (stopped || !running) return;
      await pgTool(bin, 'pg_ctl', ['stop', '-D', dir, '-m', 'fast', '-w']);
      running = false;
    },
    async startServer() {
      if (stopped || running) return;
      running = true;
      await startIt();
    },
    tcpUrl(database) {
      if (port === undefined) throw new Error('this cluster listens on no TCP port');
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(database)}`;
    },
    kill() {
      const pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
      running = false;
    },
    async promote() {
      await pgTool(bin, 'pg_ctl', ['promote', '-w', '-D', dir]);
    },
  };
}
