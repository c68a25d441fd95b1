// `npm run build:image`: builds the OCI image cnpj-api:<version> and cnpj-api:latest: the
// standalone binary (scripts/build-binary.ts) on a root filesystem holding only the shared
// libraries it loads, unpacked from Debian's packages (scripts/image/). No base image is pulled.
// docs/container.md says how to run it.
//
// Environment: CNPJ_IMAGE_ENGINE (podman, buildah or docker; default: the first that works),
//              CNPJ_IMAGE_NAME (repository name, default cnpj-api),
//              CNPJ_IMAGE_BINARY (a built binary to use instead of building one),
//              SOURCE_DATE_EPOCH (the files' and the image's date; default: the last commit's),
//              CNPJ_BINARY_CACHE (the build cache, scripts/binary/util.ts; .debs go there too).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureNodeRuntime } from './binary/runtime.ts';
import { cacheRoot, mib, repoRoot } from './binary/util.ts';
import { buildWith, inspectImage, pickEngine } from './image/engine.ts';
import { log } from './image/log.ts';
import { ADDON_CACHE_DIR, BINARY_PATH, buildRootfs, DATA_DIR, HOME_DIR, IMAGE_UID } from './image/rootfs.ts';

interface PackageJson {
  version: string;
  description: string;
  license: string;
  repository?: string | { url?: string };
}

function git(args: string[]): string {
  const r = spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

/** Where the source lives: package.json's repository, else the clone's origin. */
function sourceOf(pkg: PackageJson): string {
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  return repo || git(['remote', 'get-url', 'origin']) || 'unknown';
}

function containerfile(labels: Record<string, string>): string {
  const label = Object.entries(labels)
    .map(([k, v]) => `      ${k}=${JSON.stringify(v)}`)
    .join(' \\\n');
  return `# Written by scripts/build-image.ts; the layer is rootfs.tar (scripts/image/rootfs.ts).
FROM scratch
ADD rootfs.tar /
ENV PATH=/usr/local/bin \\
    HOME=${HOME_DIR} \\
    CNPJ_API_DATA_DIR=${DATA_DIR} \\
    CNPJ_API_CACHE_DIR=${ADDON_CACHE_DIR}
USER ${IMAGE_UID}:${IMAGE_UID}
WORKDIR ${DATA_DIR}
VOLUME ["${DATA_DIR}"]
EXPOSE 8080
STOPSIGNAL SIGTERM
LABEL ${label.trimStart()}
ENTRYPOINT ["${path.basename(BINARY_PATH)}"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
`;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const since = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as PackageJson;
  const engine = pickEngine();
  const name = process.env.CNPJ_IMAGE_NAME || 'cnpj-api';
  const tags = [`${name}:${pkg.version}`, `${name}:latest`];
  log(`engine: ${engine}`);
  const mtime = Number(process.env.SOURCE_DATE_EPOCH || git(['log', '-1', '--format=%ct']) || Date.now() / 1000) | 0;

  const work = path.join(cacheRoot, `image-${process.pid}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  try {
    let binary = process.env.CNPJ_IMAGE_BINARY ? path.resolve(process.env.CNPJ_IMAGE_BINARY) : '';
    if (!binary) {
      binary = path.join(work, 'cnpj-api');
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', 'build-binary.ts')], {
        cwd: repoRoot,
        stdio: 'inherit',
        env: { ...process.env, CNPJ_BINARY_OUT: binary },
      });
      if (r.status !== 0) throw new Error(`building the standalone binary failed (${r.status ?? r.signal})`);
    }
    log(`binary: ${mib(fs.statSync(binary).size)} (${since()})`);
    const runtime = ensureNodeRuntime(process.env.CNPJ_BINARY_NODE || '24');

    const rootfs = buildRootfs({
      binary,
      work,
      debCache: path.join(cacheRoot, 'debs'),
      licenses: { LICENSE: path.join(repoRoot, 'LICENSE'), 'node-LICENSE': path.join(runtime.dir, 'LICENSE') },
      mtime,
    });
    for (const lib of rootfs.libraries) log(`  ${lib.soname}: ${mib(lib.bytes)} from ${lib.from}`);
    log(`layer: ${mib(fs.statSync(rootfs.tar).size)} (${since()})`);

    const file = path.join(work, 'Containerfile');
    fs.writeFileSync(
      file,
      containerfile({
        'org.opencontainers.image.title': 'cnpj-api',
        'org.opencontainers.image.description': pkg.description,
        'org.opencontainers.image.version': pkg.version,
        'org.opencontainers.image.licenses': pkg.license,
        'org.opencontainers.image.source': sourceOf(pkg),
        'org.opencontainers.image.revision': git(['rev-parse', 'HEAD']) || 'unknown',
        'org.opencontainers.image.created': new Date(mtime * 1000).toISOString(),
        'org.opencontainers.image.base.name': 'scratch',
      }),
    );
    // The context holds the Containerfile and the layer only: nothing else is sent to the engine.
    fs.rmSync(path.join(work, 'rootfs'), { recursive: true, force: true });
    if (!process.env.CNPJ_IMAGE_BINARY) fs.rmSync(binary, { force: true });
    buildWith(engine, { context: work, containerfile: file, tags, timestamp: mtime });
    const facts = inspectImage(engine, tags[0]!);
    log(
      `${tags.join(', ')}: ${facts.size ? mib(facts.size) : 'size not reported by ' + engine}, ` +
        `user ${facts.user}, image ${facts.id.slice(0, 12)}, built in ${since()}`,
    );
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`[build-image] error: ${(err as Error)?.message ?? String(err)}`);
  process.exitCode = 1;
});
