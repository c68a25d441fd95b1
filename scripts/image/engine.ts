// The program that turns the build context into an image: podman, else buildah, else docker (only
// when its engine answers: a docker client without a daemon cannot build). CNPJ_IMAGE_ENGINE
// chooses one by name.
import { spawnSync } from 'node:child_process';
import { run } from '../binary/util.ts';

export type Engine = 'podman' | 'buildah' | 'docker';
const ENGINES: Engine[] = ['podman', 'buildah', 'docker'];

function works(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore', timeout: 30_000 });
  return r.status === 0;
}

export function pickEngine(wanted = process.env.CNPJ_IMAGE_ENGINE): Engine {
  if (wanted) {
    if (!ENGINES.includes(wanted as Engine)) throw new Error(`CNPJ_IMAGE_ENGINE must be one of ${ENGINES.join(', ')}`);
    return wanted as Engine;
  }
  if (works('podman', ['--version'])) return 'podman';
  if (works('buildah', ['--version'])) return 'buildah';
  if (works('docker', ['info'])) return 'docker';
  throw new Error(
    'no container engine: install podman (Debian: apt-get install podman runc), buildah, or docker with a running daemon',
  );
}

/** Builds `containerfile` in `context` under every tag; `timestamp` (seconds) dates the image. */
export function buildWith(
  engine: Engine,
  opts: { context: string; containerfile: string; tags: string[]; timestamp: number },
): void {
  const tags = opts.tags.flatMap((t) => ['--tag', t]);
  // podman and buildah date the image and its layer by --timestamp: the same inputs give the
  // same image ID. docker has no such flag (its build date is now).
  const args =
    engine === 'docker'
      ? ['build', '--file', opts.containerfile, ...tags, opts.context]
      : ['build', '--file', opts.containerfile, ...tags, '--timestamp', String(opts.timestamp), opts.context];
  run(engine, args, { stdio: ['ignore', 'inherit', 'inherit'] });
}

export interface ImageFacts {
  id: string;
  size: number;
  user: string;
}

export function inspectImage(engine: Engine, ref: string): ImageFacts {
  const verb = engine === 'buildah' ? ['inspect', '--type', 'image'] : ['image', 'inspect'];
  const raw = JSON.parse(run(engine, [...verb, ref])) as unknown;
  const info = (Array.isArray(raw) ? raw[0] : raw) as Record<string, unknown>;
  // podman and docker: Id, Size, Config.User; buildah: FromImageID, OCIv1.config.User, no size.
  const config = (info.Config ?? (info.OCIv1 as { config?: unknown } | undefined)?.config ?? {}) as { User?: string };
  return {
    id: String(info.Id ?? info.FromImageID ?? ''),
    size: Number(info.Size ?? 0),
    user: config.User ?? '',
  };
}
