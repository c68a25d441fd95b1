// Node single executable application: blob from the bundle + assets, injected into a copy of the
// embedded runtime's node binary with postject.
import fs from 'node:fs';
import path from 'node:path';
import { cacheRoot, log, repoRoot, run } from './util.ts';
import type { NodeRuntime } from './runtime.ts';

export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
// Asset names read by src/cli/binary-entry.ts.
export const ADDON_ASSET = 'better_sqlite3.node';
export const ADDON_HASH_ASSET = 'better_sqlite3.node.sha256';
export interface SeaInput {
  runtime: NodeRuntime;
  mainScript: string;
  workDir: string;
  assets: Record<string, string>;
  useCodeCache: boolean;
}

/** Writes the SEA config and lets the embedded Node produce the blob. */
export function makeBlob(input: SeaInput): string {
  const blob = path.join(input.workDir, 'sea-prep.blob');
  const config = {
    // Relative to workDir (the cwd below): the blob records this name, and a path holding the
    // build's temp folder would make every build's binary differ.
    main: path.relative(input.workDir, input.mainScript),
    output: blob,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    // The bundle is compiled at build time; start-up skips parsing and compiling it.
    useCodeCache: input.useCodeCache,
    // A stray NODE_OPTIONS (e.g. `--import tsx` from a dev shell) must not reach the binary.
    execArgvExtension: 'none',
    assets: input.assets,
  };
  const configFile = path.join(input.workDir, 'sea-config.json');
  fs.writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
  run(input.runtime.node, ['--experimental-sea-config', configFile], { cwd: input.workDir });
  return blob;
}

/**
 * The runtime's node binary without symbols (127 MB -> 109 MB), cached beside the runtime;
 * the unstripped binary when strip is missing or breaks it.
 */
function strippedNode(runtime: NodeRuntime): string {
  const out = path.join(cacheRoot, 'node', `${runtime.version}-stripped`, 'node');
  if (fs.existsSync(out)) return out;
  const tmp = `${out}.tmp-${process.pid}`;
  try {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    run('strip', ['--strip-all', '-o', tmp, runtime.node]);
    run(tmp, ['-e', 'process.exit(require("node:sea").isSea() ? 1 : 0)']);
    fs.renameSync(tmp, out);
    return out;
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    log(`using the unstripped node binary: ${(err as Error).message.split('\n')[0]}`);
    return runtime.node;
  }
}

/** Copies node, injects the blob, marks it executable, and moves it to `output` atomically. */
export function injectBlob(runtime: NodeRuntime, blob: string, output: string): void {
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const tmp = `${output}.tmp-${process.pid}`;
  try {
    fs.copyFileSync(strippedNode(runtime), tmp);
    fs.chmodSync(tmp, 0o755);
    const postject = path.join(repoRoot, 'node_modules', 'postject', 'dist', 'cli.js');
    run(process.execPath, [postject, tmp, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE]);
    fs.renameSync(tmp, output);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
