// A throwaway static file server for one test file: Debian's nginx serving a folder read-only on a
// loopback port, as a release mirror would (ranges, sendfile, no directory listings). Its config,
// pid file, logs and temp folders live in a temp dir that stop() removes; the folder served is the
// caller's and stays.
//
// nginx runs in the foreground as our child (`daemon off`) and as one process (`master_process
// off`: no worker to outlive a killed master), so killing the child leaves nothing running. It
// keeps the user it was started as (no `user` directive applies without a master), which can read
// whatever the test wrote. `-e` sends the log nginx opens before reading its config to the temp dir
// too (else /var/log/nginx/error.log).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { canConnect, freePorts } from './ports.ts';

export const NGINX_BIN = '/usr/sbin/nginx';

export interface NginxServer {
  /** http://127.0.0.1:<port> serving the folder's files at their relative paths. */
  readonly url: string;
  /** The temp dir holding the config, pid file and logs. */
  readonly dir: string;
  /** From the call to the first accepted connection, in milliseconds. */
  readonly startupMs: number;
  /** Stops nginx and removes its temp dir; safe to call twice. */
  stop(): Promise<void>;
}

/** The nginx binary, or a clear error naming the package to install. */
export function findNginx(file = NGINX_BIN): string {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return file;
  } catch {
    throw new Error(
      `nginx is not installed: no ${file}. The HTTP release store tests need Debian's "nginx" package ` +
        `(apt-get install --no-install-recommends nginx).`,
    );
  }
}

function config(dir: string, root: string, port: number): string {
  const q = (p: string) => JSON.stringify(p); // a quoted nginx string: the paths may hold spaces
  const tmp = (name: string) => q(path.join(dir, 'tmp', name));
  return `daemon off;
master_process off;
worker_processes 1;
pid ${q(path.join(dir, 'nginx.pid'))};
error_log ${q(path.join(dir, 'error.log'))} warn;

events {
  worker_connections 256;
}

http {
  access_log ${q(path.join(dir, 'access.log'))};
  client_body_temp_path ${tmp('client_body')};
  proxy_temp_path ${tmp('proxy')};
  fastcgi_temp_path ${tmp('fastcgi')};
  uwsgi_temp_path ${tmp('uwsgi')};
  scgi_temp_path ${tmp('scgi')};
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  server_tokens off;

  server {
    listen 127.0.0.1:${port};
    root ${q(root)};
    autoindex off;
    location / {
      # Read only: GET and HEAD (static files answer anything else with 405 anyway).
      limit_except GET {
        deny all;
      }
    }
  }
}
`;
}

/** Starts nginx serving `root` (an existing folder). The caller stops it (`after(() => server.stop())`). */
export async function startNginx(root: string): Promise<NginxServer> {
  const bin = findNginx();
  const absRoot = path.resolve(root);
  if (!fs.statSync(absRoot).isDirectory()) throw new Error(`not a folder: ${root}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(bin, absRoot);
    } catch (err) {
      // The port was taken between freePorts() and nginx's bind: again, on another.
      if (attempt < 3 && /Address already in use/.test((err as Error).message)) continue;
      throw err;
    }
  }
}

async function startOnce(bin: string, root: string): Promise<NginxServer> {
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-nginx-'));
  fs.mkdirSync(path.join(dir, 'tmp'));
  const [port] = await freePorts(1);
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, config(dir, root, port));
  const errorLog = path.join(dir, 'error.log');
  const output = path.join(dir, 'output.log');

  let removed = false;
  let stopping: Promise<void> | undefined;
  let exited = false;
  const fd = fs.openSync(output, 'a');
  const proc: ChildProcess = spawn(bin, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const exit = new Promise<void>((resolve) => {
    proc.once('exit', () => {
      exited = true;
      resolve();
    });
    proc.once('error', () => {
      exited = true;
      resolve();
    });
  });

  // Last resort for a process that exits without running its `after` hooks (or dies in the middle
  // of stop()).
  const onExit = () => {
    if (removed) return;
    removed = true;
    if (!exited) proc.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', onExit);

  const stop = () =>
    (stopping ??= (async () => {
      if (!exited) {
        proc.kill('SIGTERM'); // fast shutdown
        const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
        await exit;
        clearTimeout(timer);
      }
      if (!removed) fs.rmSync(dir, { recursive: true, force: true });
      removed = true;
      process.off('exit', onExit);
    })());

  const logs = () =>
    [errorLog, output]
      .map((f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim() : ''))
      .filter(Boolean)
      .join('\n')
      .split('\n')
      .slice(-10)
      .join('\n');

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited || Date.now() > deadline) {
      const message = `nginx ${exited ? `exited (code ${proc.exitCode})` : 'did not listen within 10 s'}:\n${logs()}`;
      await stop();
      throw new Error(message);
    }
    if (await canConnect(port)) break;
    await sleep(20);
  }
  return { url: `http://127.0.0.1:${port}`, dir, startupMs: performance.now() - started, stop };
}
