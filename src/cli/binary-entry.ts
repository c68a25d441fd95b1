// Entry point of the standalone binary (dist/cnpj-api, a Node single executable application).
// scripts/build-binary.ts bundles this file, with everything it imports, into one CommonJS
// script. Inside a SEA `require` only reaches Node's built-in modules and a native addon cannot
// be loaded from the bundle, so the better-sqlite3 addon travels as a SEA asset: it is written
// once to a cache directory under a content-hashed name, loaded with process.dlopen and handed
// to better-sqlite3 as its `nativeBinding` object. No top-level await: SEA main scripts are CJS.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sea from 'node:sea';
import { setNativeBinding } from '../storage/sqlite.ts';
import { main } from './main.ts';

// Asset names: the same strings as in scripts/binary/sea.ts (this file runs when imported, so the
// build script cannot import them from here).
const ADDON_ASSET = 'better_sqlite3.node';
const ADDON_HASH_ASSET = 'better_sqlite3.node.sha256';

/**
 * Where the addon may be written, best first: CNPJ_API_CACHE_DIR, systemd's CacheDirectory=
 * ($CACHE_DIRECTORY), the XDG cache, ~/.cache, a per-user folder in the temp dir.
 */
function cacheDirCandidates(): string[] {
  const env = process.env;
  const dirs: string[] = [];
  if (env.CNPJ_API_CACHE_DIR) dirs.push(path.resolve(env.CNPJ_API_CACHE_DIR));
  const systemd = env.CACHE_DIRECTORY?.split(':')[0];
  if (systemd && path.isAbsolute(systemd)) dirs.push(systemd);
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) dirs.push(path.join(env.XDG_CACHE_HOME, 'cnpj-api'));
  let home = '';
  try {
    home = os.homedir(); // $HOME, else the passwd entry
  } catch {
    // no home directory at all (some service users)
  }
  if (home) dirs.push(path.join(home, '.cache', 'cnpj-api'));
  // Shared tmp: one folder per user so nobody else can plant a file we would load.
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  dirs.push(path.join(os.tmpdir(), `cnpj-api-${uid}`));
  return [...new Set(dirs)];
}

/** Creates dir (0700) and refuses it when another user owns it or others may write into it. */
function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid())
    throw new Error(`${dir} belongs to another user`);
  if (st.mode & 0o022) throw new Error(`${dir} is writable by other users`);
}

/** The file holds exactly `bytes` (written earlier by this or a concurrent process)? */
function sameContent(file: string, bytes: Buffer): boolean {
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size !== bytes.length) return false;
    return fs.readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}

/** Atomic publish: a private temp file in the same folder, fsync, rename over the final name. */
function writeAtomically(file: string, bytes: Buffer): void {
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'wx', 0o700);
    try {
      fs.writeSync(fd, bytes);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function loadEmbeddedAddon(): unknown {
  const raw = sea.getRawAsset(ADDON_ASSET);
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'latin1') : Buffer.from(raw);
  const hash = sea.getAsset(ADDON_HASH_ASSET, 'utf8').trim();
  const name = `better_sqlite3-${hash.slice(0, 16)}.node`;
  const failures: string[] = [];
  for (const dir of cacheDirCandidates()) {
    const file = path.join(dir, name);
    try {
      ensurePrivateDir(dir);
      if (!sameContent(file, bytes)) writeAtomically(file, bytes);
      const mod = { exports: {} as unknown };
      process.dlopen(mod, file, os.constants.dlopen.RTLD_NOW);
      return mod.exports;
    } catch (err) {
      // Read-only home, noexec tmp, foreign folder...: try the next place.
      failures.push(`${dir}: ${(err as Error).message}`);
    }
  }
  throw new Error(
    `cannot load the embedded SQLite addon (set CNPJ_API_CACHE_DIR to a writable, executable folder): ${failures.join('; ')}`,
  );
}

async function start(): Promise<void> {
  if (sea.isSea()) setNativeBinding(loadEmbeddedAddon());
  // SEA: argv[0] and argv[1] are both the executable, as with `node script.js`.
  return main(process.argv.slice(2));
}

start().catch((err: unknown) => {
  console.error(`error: ${(err as Error)?.message ?? String(err)}`);
  process.exitCode = 1;
});
