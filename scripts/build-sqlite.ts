// postinstall: recompiles node_modules/better-sqlite3 with SQLite's memory-map ceiling raised
// from 2 GB to 64 GiB (see SQLITE_MAX_MMAP_SIZE), unless the installed build already has it.
// npm has just built (or downloaded) better-sqlite3 with SQLite's defaults; a compile-time option
// can only come from a compile, so this is a second one (~100 s on one core).
//
// Everything works without it, only slower on a full month: if the compile fails (no C compiler,
// no Python for node-gyp), this warns and leaves the installed build in place.
//   node --import tsx scripts/build-sqlite.ts [--force]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findNodeGyp, repoRoot, run, SQLITE_MAX_MMAP_SIZE, sqliteBuildEnv } from './binary/util.ts';

const pkgDir = path.join(repoRoot, 'node_modules', 'better-sqlite3');

/** The installed build's ceiling, asked in a child process (the addon cannot be unloaded here). */
function installedCeiling(): number {
  const probe = `
    const D = require(${JSON.stringify(pkgDir)});
    const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'mmap-'));
    const db = new D(require('node:path').join(dir, 'probe.db'));
    process.stdout.write(String(db.pragma('mmap_size = ${SQLITE_MAX_MMAP_SIZE}', { simple: true })));
    db.close();
    require('node:fs').rmSync(dir, { recursive: true, force: true });`;
  return Number(run(process.execPath, ['-e', probe]).trim());
}

function main(): void {
  if (!fs.existsSync(pkgDir)) return; // installed without better-sqlite3? nothing to do
  const force = process.argv.includes('--force');
  if (!force && installedCeiling() >= SQLITE_MAX_MMAP_SIZE) {
    console.log(`better-sqlite3: SQLite memory-map ceiling already ${SQLITE_MAX_MMAP_SIZE / 2 ** 30} GiB`);
    return;
  }
  console.log('better-sqlite3: recompiling SQLite with a 64 GiB memory-map ceiling (about two minutes)');
  const started = Date.now();
  try {
    run(process.execPath, [findNodeGyp(), 'rebuild', '--release', `--jobs=${Math.min(2, os.availableParallelism())}`], {
      cwd: pkgDir,
      env: sqliteBuildEnv(process.env),
    });
  } catch (err) {
    console.warn(
      `better-sqlite3: could not recompile (${(err as Error).message.split('\n')[0]}); keeping the installed build. ` +
        'CodeTables on a full month will read snapshot pages with pread() beyond the first 2 GB of each file.',
    );
    return;
  }
  const ceiling = installedCeiling();
  if (ceiling < SQLITE_MAX_MMAP_SIZE)
    throw new Error(`better-sqlite3 was recompiled but its memory-map ceiling is still ${ceiling}`);
  console.log(`better-sqlite3: recompiled in ${Math.round((Date.now() - started) / 1000)} s`);
}

main();
