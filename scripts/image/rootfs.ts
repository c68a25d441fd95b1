// The image's one layer: the standalone binary, the shared libraries it loads (from Debian's
// .debs, libraries.ts), a user to run as, and the folders it writes. No shell, no package manager,
// no other program: nothing an attacker could use, nothing to patch but what the binary needs.
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../binary/util.ts';
import { copyrightOf, debianPackages, libraryInPackage, sharedLibraries } from './libraries.ts';
import { log } from './log.ts';

/** The user the container runs as: numeric, so Kubernetes' runAsNonRoot can check it. */
export const IMAGE_UID = 10001;
export const IMAGE_USER = 'cnpj';
export const BINARY_PATH = '/usr/local/bin/cnpj-api';
export const DATA_DIR = '/data';
export const HOME_DIR = `/home/${IMAGE_USER}`;
/** The binary writes its SQLite addon here once (src/cli/binary-entry.ts): done at build time. */
export const ADDON_CACHE_DIR = '/var/cache/cnpj-api';
const LIB_DIR = 'usr/lib/x86_64-linux-gnu';

export interface Rootfs {
  /** The layer, a tar with owners and modes set (unpacked by the engine's ADD). */
  tar: string;
  libraries: { soname: string; from: string; bytes: number }[];
}

function write(root: string, rel: string, text: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, { mode: 0o644 });
}

/**
 * Lays out the root filesystem in `work`/rootfs and packs it into `work`/rootfs.tar, every file
 * dated `mtime` (seconds) so the same inputs give the same layer.
 */
export function buildRootfs(opts: {
  binary: string;
  work: string;
  debCache: string;
  licenses: Record<string, string>;
  mtime: number;
}): Rootfs {
  const root = path.join(opts.work, 'rootfs');
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });

  // The binary, and its addon written where it looks first (CNPJ_API_CACHE_DIR in the image).
  const bin = path.join(root, BINARY_PATH);
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  fs.copyFileSync(opts.binary, bin);
  fs.chmodSync(bin, 0o755);
  const addonDir = path.join(root, ADDON_CACHE_DIR);
  run(bin, ['--version'], { env: { CNPJ_API_CACHE_DIR: addonDir } });
  const addons = fs.readdirSync(addonDir).filter((f) => f.endsWith('.node'));
  if (addons.length !== 1) throw new Error(`expected one addon in ${addonDir}, found: ${addons.join(', ')}`);

  // Exactly the libraries the binary and its addon load, from their Debian packages.
  const libs = sharedLibraries([opts.binary, path.join(addonDir, addons[0]!)]);
  const packages = debianPackages(libs, opts.debCache);
  const libraries: Rootfs['libraries'] = [];
  for (const [lib, pkg] of packages) {
    const from = libraryInPackage(pkg, lib);
    const to = path.join(root, LIB_DIR, lib.soname);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
    libraries.push({ soname: lib.soname, from: `${pkg.name} ${pkg.version}`, bytes: fs.statSync(to).size });
  }
  // Debian's merged /usr: /lib and /lib64 are links, and the interpreter the binary names
  // (/lib64/ld-linux-x86-64.so.2) is reached through them.
  fs.mkdirSync(path.join(root, 'usr/lib64'), { recursive: true });
  fs.symlinkSync('../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2', path.join(root, 'usr/lib64/ld-linux-x86-64.so.2'));
  fs.symlinkSync('usr/lib', path.join(root, 'lib'));
  fs.symlinkSync('usr/lib64', path.join(root, 'lib64'));

  // The licences of what is inside: each package's copyright file, Node's, ours.
  // debianPackages gives the libraries of one package the same object.
  const unique = [...new Set(packages.values())];
  for (const pkg of unique) {
    const bare = pkg.name.split(':')[0]!;
    const copyright = copyrightOf(pkg, opts.debCache);
    write(root, `usr/share/doc/${bare}/copyright`, fs.readFileSync(copyright, 'utf8'));
  }
  for (const [name, file] of Object.entries(opts.licenses))
    write(root, `usr/share/doc/cnpj-api/${name}`, fs.readFileSync(file, 'utf8'));

  // Users and name lookup: glibc reads these; /etc/hosts and resolv.conf come from the engine.
  write(
    root,
    'etc/passwd',
    `root:x:0:0:root:/root:/usr/sbin/nologin\n${IMAGE_USER}:x:${IMAGE_UID}:${IMAGE_UID}:cnpj-api:${HOME_DIR}:/usr/sbin/nologin\n`,
  );
  write(root, 'etc/group', `root:x:0:\n${IMAGE_USER}:x:${IMAGE_UID}:\n`);
  write(root, 'etc/nsswitch.conf', 'passwd: files\ngroup: files\nhosts: files dns\n');
  for (const dir of ['tmp', 'root', DATA_DIR, HOME_DIR]) fs.mkdirSync(path.join(root, dir), { recursive: true });
  // Modes the layer carries whatever the umask: a sticky /tmp, private user folders.
  fs.chmodSync(path.join(root, 'tmp'), 0o1777);
  fs.chmodSync(path.join(root, 'root'), 0o700);
  fs.chmodSync(path.join(root, HOME_DIR), 0o700);
  fs.chmodSync(path.join(root, DATA_DIR), 0o755);
  fs.chmodSync(addonDir, 0o700);

  // Two passes: everything as root, then the user's own folders (the engine keeps the owners).
  const tar = path.join(opts.work, 'rootfs.tar');
  const userOwned = [DATA_DIR, HOME_DIR, ADDON_CACHE_DIR].map((d) => `.${d}`);
  const common = ['--sort=name', `--mtime=@${opts.mtime}`, '--numeric-owner', '--format=gnu', '-C', root];
  fs.rmSync(tar, { force: true });
  run('tar', [
    '--create',
    '--file',
    tar,
    '--owner=0',
    '--group=0',
    ...userOwned.map((d) => `--exclude=${d}`),
    ...common,
    '.',
  ]);
  run('tar', ['--append', '--file', tar, `--owner=${IMAGE_UID}`, `--group=${IMAGE_UID}`, ...common, ...userOwned]);
  log(`root filesystem: ${libraries.length} libraries from ${unique.map((p) => p.name).join(', ')}`);
  return { tar, libraries };
}
