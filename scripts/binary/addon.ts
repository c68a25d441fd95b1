// better-sqlite3 compiled for the embedded runtime. The build happens in a temporary copy of the
// installed package, so node_modules (built for the Node that runs the tests) is never touched.
// Cached per better-sqlite3 version and Node ABI under <cache>/addon/<key>/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheRoot, cleanEnv, findNodeGyp, log, publishDir, repoRoot, run, sqliteBuildEnv } from './util.ts';
import type { NodeRuntime } from './runtime.ts';

export interface Addon {
  file: string;
  sha256: string;
  key: string;
}

export function ensureAddon(runtime: NodeRuntime): Addon {
  const pkgDir = path.join(repoRoot, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  // "-nowraphooks": compiled with patchedNodeDir() below; "-mmap": with sqliteBuildEnv()'s memory-map
  // ceiling. The suffixes keep older cache entries out.
  const key = `better-sqlite3-${version}-abi${runtime.abi}-${process.platform}-${process.arch}-nowraphooks-mmap`;
  const dir = path.join(cacheRoot, 'addon', key);
  const file = path.join(dir, 'better_sqlite3.node');
  if (!fs.existsSync(file)) {
    log(
      `compiling better-sqlite3 ${version} for Node ${runtime.version} (ABI ${runtime.abi}); this takes a couple of minutes`,
    );
    const work = `${dir}.work-${process.pid}`;
    fs.rmSync(work, { recursive: true, force: true });
    try {
      fs.cpSync(pkgDir, path.join(work, 'pkg'), {
        recursive: true,
        filter: (src) => path.relative(pkgDir, src).split(path.sep)[0] !== 'build',
      });
      const started = Date.now();
      const jobs = String(Math.max(1, Math.min(2, os.availableParallelism())));
      const nodedir = patchedNodeDir(runtime, path.join(work, 'nodedir'));
      run(process.execPath, [findNodeGyp(), 'rebuild', '--release', `--nodedir=${nodedir}`, `--jobs=${jobs}`], {
        cwd: path.join(work, 'pkg'),
        env: sqliteBuildEnv(cleanEnv()),
      });
      const built = path.join(work, 'pkg', 'build', 'Release', 'better_sqlite3.node');
      fs.mkdirSync(path.join(work, 'out'));
      const out = path.join(work, 'out', 'better_sqlite3.node');
      try {
        run('strip', ['--strip-unneeded', '-o', out, built]);
      } catch (err) {
        log(`strip failed, embedding the addon unstripped: ${(err as Error).message.split('\n')[0]}`);
        fs.copyFileSync(built, out);
      }
      smokeTest(runtime, out, pkgDir);
      publishDir(path.join(work, 'out'), dir);
      log(`addon compiled in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  const sha256 = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  return { file, sha256, key };
}

/**
 * Node 24.19 added environment cleanup hooks to the header-only node::ObjectWrap (nodejs/node
 * #63642): its destructor calls RemoveEnvironmentCleanupHook(Isolate::GetCurrent()), which aborts
 * the process ("Assertion failed: (env) != nullptr") when V8 collects a wrapped object while no
 * context is entered. better-sqlite3 12 wraps every Statement in an ObjectWrap, so a program that
 * prepares enough statements dies at a random GC (the binary did so on `status`; see smokeTest).
 * ObjectWrap lives entirely in the addon, so the addon is compiled against a copy of the headers
 * whose ObjectWrap registers no hooks: the behaviour of every Node release before 24.19 (objects
 * still alive at exit are not deleted, the OS reclaims them). The embedded runtime is unchanged.
 */
function patchedNodeDir(runtime: NodeRuntime, dir: string): string {
  fs.cpSync(path.join(runtime.dir, 'include'), path.join(dir, 'include'), { recursive: true });
  const header = path.join(dir, 'include', 'node', 'node_object_wrap.h');
  const text = fs.readFileSync(header, 'utf8');
  if (!text.includes('EnvironmentCleanupHook')) return dir; // a Node without the hooks
  const patched = text
    .replace(/(void AddCleanupHook\(\)\s*\{)[^}]*\}/, '$1}')
    .replace(/(void RemoveCleanupHook\(\)\s*\{)[^}]*\}/, '$1}');
  if (/(Add|Remove)EnvironmentCleanupHook\(/.test(patched)) {
    throw new Error(
      `${header}: unexpected ObjectWrap cleanup-hook code; update patchedNodeDir() in scripts/binary/addon.ts`,
    );
  }
  fs.writeFileSync(header, patched);
  log('compiling against node_object_wrap.h without cleanup hooks (Node 24.19+ ObjectWrap GC abort)');
  return dir;
}

/**
 * Loads the addon into the embedded Node the way the binary does, runs a query, and prepares
 * enough short-lived statements with a tiny young generation that V8 collects many of them: the
 * ObjectWrap abort above shows up here within 20000 statements.
 */
function smokeTest(runtime: NodeRuntime, addonFile: string, pkgDir: string): void {
  const script = `
    const m = { exports: {} };
    process.dlopen(m, ${JSON.stringify(addonFile)});
    const Database = require(${JSON.stringify(pkgDir)});
    const db = new Database(':memory:', { nativeBinding: m.exports });
    for (let i = 0; i < 20000; i++) db.prepare('select ' + i).get();
    console.log(db.prepare('select sqlite_version() as v').get().v);`;
  const v = run(runtime.node, ['--max-semi-space-size=1', '-e', script]).trim();
  log(`addon loads in Node ${runtime.version} (SQLite ${v})`);
}
