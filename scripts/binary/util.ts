// Small helpers shared by the standalone-binary build steps.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * Everything reusable between builds: Node runtime, compiled addon, work files (~300 MB).
 * CNPJ_BINARY_CACHE, else the user's cache folder ($XDG_CACHE_HOME or ~/.cache)/cnpj-api-build:
 * never inside the clone, so a build leaves the clone as it was and later clones reuse it.
 */
export const cacheRoot = path.resolve(
  process.env.CNPJ_BINARY_CACHE ||
    path.join(
      process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME)
        ? process.env.XDG_CACHE_HOME
        : path.join(os.homedir(), '.cache'),
      'cnpj-api-build',
    ),
);

/** A progress logger whose lines start with `[name]`, on stdout. */
export function logger(name: string): (msg: string) => void {
  return (msg) => console.log(`[${name}] ${msg}`);
}

export const log = logger('build-binary');

/** Runs a command, inheriting stdio unless told otherwise; throws with its output on failure. */
export function run(cmd: string, args: string[], opts: SpawnSyncOptions = {}): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20, ...opts });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) {
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}\n${out}`);
  }
  return String(r.stdout ?? '');
}

/** node-gyp: the one npm runs for install scripts (npm sets npm_config_node_gyp), else npm's own. */
export function findNodeGyp(): string {
  const candidates: string[] = [];
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  if (process.env.npm_execpath)
    candidates.push(
      path.resolve(path.dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    );
  try {
    const npmRoot = run('npm', ['root', '-g'], { env: cleanEnv() }).trim();
    candidates.push(path.join(npmRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  } catch {
    // npm without a global root: the other candidates only
  }
  candidates.push(path.join(repoRoot, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`node-gyp not found (looked at ${candidates.join(', ')})`);
  return found;
}

/**
 * SQLite's memory-map ceiling for our builds of better-sqlite3: 64 GiB instead of the 2 GB that
 * SQLite compiles in by default, so a whole snapshot file (10–12 GB on a full month) is mapped and
 * a lookup reads its B-tree pages from memory instead of one pread() each (docs/benchmarks.md).
 */
export const SQLITE_MAX_MMAP_SIZE = 2 ** 36;

/** `env` plus the C flags that set SQLITE_MAX_MMAP_SIZE (node-gyp's Makefile appends CFLAGS). */
export function sqliteBuildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, CFLAGS: `${env.CFLAGS ?? ''} -DSQLITE_MAX_MMAP_SIZE=${SQLITE_MAX_MMAP_SIZE}`.trim() };
}

/** Environment for child builds without npm's exported config (npm run sets npm_config_nodedir=...). */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
}

/** Numeric compare of dotted versions ("24.10.0" > "24.9.0"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** Moves a finished temp directory into place; a concurrent builder that got there first wins. */
export function publishDir(tmp: string, final: string): void {
  try {
    fs.renameSync(tmp, final);
  } catch (err) {
    if (!fs.existsSync(final)) throw err;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
