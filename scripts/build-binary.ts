// `npm run build:binary`: builds dist/cnpj-api, a standalone executable (Node single executable
// application) holding the Node 24 runtime, the bundled CLI, the better-sqlite3 addon compiled
// for Node 24 and the web app's static files. The runtime and the addon are cached outside the
// clone (see cacheRoot), so only the first build compiles anything.
//
// Environment: CNPJ_BINARY_NODE (Node line or exact version, default 24),
//              CNPJ_BINARY_OUT (output file, default dist/cnpj-api),
//              CNPJ_BINARY_CACHE (cache folder, default ~/.cache/cnpj-api-build).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureAddon } from './binary/addon.ts';
import { bundleCli } from './binary/bundle.ts';
import { ensureNodeRuntime } from './binary/runtime.ts';
import { ADDON_ASSET, ADDON_HASH_ASSET, injectBlob, makeBlob } from './binary/sea.ts';
import { cacheRoot, log, mib, repoRoot } from './binary/util.ts';

async function build(): Promise<void> {
  const t0 = Date.now();
  const since = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const output = path.resolve(repoRoot, process.env.CNPJ_BINARY_OUT || 'dist/cnpj-api');
  const runtime = ensureNodeRuntime(process.env.CNPJ_BINARY_NODE || '24');
  log(`runtime: Node ${runtime.version} (${since()})`);
  const addon = ensureAddon(runtime);
  log(`addon: ${addon.key}, ${mib(fs.statSync(addon.file).size)} (${since()})`);

  const workDir = path.join(cacheRoot, `work-${process.pid}`);
  fs.rmSync(workDir, { recursive: true, force: true });
  fs.mkdirSync(workDir, { recursive: true });
  try {
    const bundle = await bundleCli(path.join(workDir, 'cnpj-api.cjs'), runtime.version.split('.')[0]!);
    if (bundle.hasDynamicImport) log('the bundle keeps a dynamic import(): building without the code cache');
    log(`bundle: ${mib(bundle.bytes)} (${since()})`);

    const hashFile = path.join(workDir, ADDON_HASH_ASSET);
    fs.writeFileSync(hashFile, addon.sha256 + '\n');
    const blob = makeBlob({
      runtime,
      mainScript: bundle.file,
      workDir,
      assets: { [ADDON_ASSET]: addon.file, [ADDON_HASH_ASSET]: hashFile },
      useCodeCache: !bundle.hasDynamicImport,
    });
    log(`SEA blob: ${mib(fs.statSync(blob).size)} (${since()})`);

    injectBlob(runtime, blob, output);

    // The binary must start with nothing around it: no node_modules, no environment but a
    // throw-away folder for the addon it extracts (so the check leaves nothing in ~/.cache).
    const check = spawnSync(output, ['--help'], {
      cwd: workDir,
      env: { CNPJ_API_CACHE_DIR: path.join(workDir, 'addon-cache') },
      encoding: 'utf8',
    });
    if (check.status !== 0)
      throw new Error(`${output} --help failed (${check.status ?? check.signal}): ${check.stderr}`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const shown = path.relative(process.cwd(), output);
  log(`${shown.startsWith('..') ? output : shown}: ${mib(fs.statSync(output).size)}, built in ${since()}`);
}

build().catch((err: unknown) => {
  console.error(`[build-binary] error: ${(err as Error)?.message ?? String(err)}`);
  process.exitCode = 1;
});
