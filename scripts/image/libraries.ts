// The shared libraries the standalone binary loads, taken from Debian's packages: ldd names them,
// dpkg says which package and version the host's copy came from, and that exact .deb is fetched
// with `apt-get download` and unpacked, so the image holds the archive's files, not the host's.
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../binary/util.ts';
import { log } from './log.ts';

export interface Library {
  /** The name the loader asks for: libc.so.6, or the interpreter's ld-linux-x86-64.so.2. */
  soname: string;
  /** Where ldd found it on this machine. */
  hostPath: string;
}

/** Everything `files` (ELF executables or addons) load, the dynamic loader included. */
export function sharedLibraries(files: string[]): Library[] {
  const found = new Map<string, Library>();
  for (const file of files) {
    for (const line of run('ldd', [file]).split('\n')) {
      // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)"
      const linked = /^\s*(\S+) => (\/\S+) \(0x[0-9a-f]+\)/.exec(line);
      const loader = /^\s*(\/\S+) \(0x[0-9a-f]+\)/.exec(line);
      if (linked) found.set(linked[1]!, { soname: linked[1]!, hostPath: linked[2]! });
      else if (loader)
        found.set(path.basename(loader[1]!), { soname: path.basename(loader[1]!), hostPath: loader[1]! });
      else if (/not found/.test(line)) throw new Error(`${file} needs a library this machine lacks: ${line.trim()}`);
    }
  }
  return [...found.values()].sort((a, b) => a.soname.localeCompare(b.soname));
}

export interface DebianPackage {
  name: string; // with its architecture, e.g. libc6:amd64
  version: string;
  /** Unpacked .deb (dpkg-deb -x). */
  root: string;
}

/**
 * The installed package that owns `file`. Debian 12 merges /lib into /usr/lib while its packages
 * still name either one, so both spellings are asked.
 */
function owner(file: string): { name: string; version: string } {
  const real = fs.realpathSync(file);
  const names = new Set([file, real]);
  for (const p of [...names]) {
    if (p.startsWith('/usr/lib/')) names.add(p.slice('/usr'.length));
    else if (p.startsWith('/lib/') || p.startsWith('/lib64/')) names.add(`/usr${p}`);
  }
  for (const p of names) {
    try {
      // "libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6"
      const m = /^([\w.+-]+(?::[\w-]+)?): \//m.exec(run('dpkg-query', ['--search', p]));
      if (!m) continue;
      const pkg = m[1]!;
      const version = run('dpkg-query', ['--show', '--showformat=${Version}', pkg]).trim();
      return { name: pkg, version };
    } catch {
      // another spelling
    }
  }
  throw new Error(`no Debian package owns ${file} (dpkg-query --search): the image is built from Debian's packages`);
}

/** The .deb of `name`=`version` (name with its architecture), downloaded once into `cacheDir` and unpacked. */
export function fetchPackage(name: string, version: string, cacheDir: string): DebianPackage {
  fs.mkdirSync(cacheDir, { recursive: true });
  const [bare, arch = run('dpkg', ['--print-architecture']).trim()] = name.split(':') as [string, string?];
  // apt-get download names the file <name>_<version with ':' as %3a>_<arch>.deb.
  const debName = `${bare}_${version.replace(/:/g, '%3a')}_${arch}.deb`;
  const deb = path.join(cacheDir, debName);
  if (!fs.existsSync(deb)) {
    log(`downloading ${name}=${version} from the Debian archive`);
    try {
      run('apt-get', ['download', `${name}=${version}`], { cwd: cacheDir });
    } catch (err) {
      throw new Error(
        `apt-get download ${name}=${version} failed (run apt-get update first?): ${(err as Error).message}`,
        {
          cause: err,
        },
      );
    }
  }
  const root = path.join(cacheDir, debName.replace(/\.deb$/, ''));
  if (!fs.existsSync(root)) {
    const tmp = `${root}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    run('dpkg-deb', ['-x', deb, tmp]);
    fs.renameSync(tmp, root);
  }
  return { name, version, root };
}

/** The package of each library: the installed one that owns the host's copy, fetched from the archive. */
export function debianPackages(libs: Library[], cacheDir: string): Map<Library, DebianPackage> {
  const out = new Map<Library, DebianPackage>();
  const byName = new Map<string, DebianPackage>();
  for (const lib of libs) {
    const { name, version } = owner(lib.hostPath);
    const pkg = byName.get(name) ?? fetchPackage(name, version, cacheDir);
    byName.set(name, pkg);
    out.set(lib, pkg);
  }
  return out;
}

/**
 * A package's copyright file. Debian lets a package's doc folder be a link to that of another
 * package built from the same source at the same version (libstdc++6 → gcc-12-base): that one is
 * fetched for it.
 */
export function copyrightOf(pkg: DebianPackage, cacheDir: string): string {
  const bare = pkg.name.split(':')[0]!;
  const docDir = path.join(pkg.root, 'usr/share/doc', bare);
  const st = fs.lstatSync(docDir, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) {
    const target = fs.readlinkSync(docDir);
    if (target.includes('/'))
      throw new Error(`${pkg.name}: its doc folder links to ${target}, not to a sibling package`);
    const arch = pkg.name.split(':')[1];
    const sibling = fetchPackage(arch ? `${target}:${arch}` : target, pkg.version, cacheDir);
    return fileInPackage(sibling.root, `usr/share/doc/${target}/copyright`);
  }
  return fileInPackage(pkg.root, `usr/share/doc/${bare}/copyright`);
}

/**
 * `rel` inside an unpacked package, following its symbolic links (relative ones, and absolute
 * ones read as rooted at the package) to the file itself.
 */
export function fileInPackage(root: string, rel: string): string {
  let current = rel.replace(/^\/+/, '');
  for (let hops = 0; hops < 16; hops++) {
    const full = path.join(root, current);
    const st = fs.lstatSync(full, { throwIfNoEntry: false });
    if (!st) throw new Error(`${current} is not in ${path.basename(root)}`);
    if (!st.isSymbolicLink()) return full;
    const target = fs.readlinkSync(full);
    current = target.startsWith('/') ? target.slice(1) : path.join(path.dirname(current), target);
  }
  throw new Error(`${rel} in ${path.basename(root)}: too many symbolic links`);
}

/** Where a package keeps the library named `soname` (Debian 12 ships both /lib and /usr/lib paths). */
export function libraryInPackage(pkg: DebianPackage, lib: Library): string {
  const tried: string[] = [];
  for (const dir of [path.dirname(lib.hostPath), '/lib/x86_64-linux-gnu', '/usr/lib/x86_64-linux-gnu', '/lib64']) {
    for (const d of new Set([dir, dir.startsWith('/usr/') ? dir.slice(4) : `/usr${dir}`])) {
      const rel = path.join(d, lib.soname);
      tried.push(rel);
      try {
        return fileInPackage(pkg.root, rel);
      } catch {
        // next place
      }
    }
  }
  throw new Error(`${pkg.name} ${pkg.version} has no ${lib.soname} (looked at ${[...new Set(tried)].join(', ')})`);
}
