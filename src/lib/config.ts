// One place for where things live and what the environment may override.
import path from 'node:path';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8080;

/** `--data-dir`, else `CNPJ_API_DATA_DIR`, else `./data`, resolved to an absolute path. */
export function resolveDataDir(flag?: string): string {
  return path.resolve(flag || process.env.CNPJ_API_DATA_DIR || 'data');
}

export interface DataPaths {
  root: string;
  appDb: string;
  registryDir: string;
  /** The change history (docs/history.md): beside the snapshots, never pruned with them. */
  historyDb: string;
}

export function dataPaths(dataDir: string): DataPaths {
  return {
    root: dataDir,
    appDb: path.join(dataDir, 'app.db'),
    registryDir: path.join(dataDir, 'registry'),
    historyDb: path.join(dataDir, 'history.db'),
  };
}

/** Where `--public-url` comes from when the flag is not given. */
export const PUBLIC_URL_ENV = 'CNPJ_API_PUBLIC_URL';

/**
 * The base URL users see (docs, OpenAPI `servers`, curl examples), normalised to its origin,
 * or a sentence saying what is wrong with it. No path: the pages link to absolute paths
 * (/login, /openapi.json), so cnpj-api must sit at the root of its host.
 */
export function parsePublicUrl(value: string): { url: string } | { problem: string } {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return { problem: 'must be an absolute http:// or https:// URL' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { problem: 'must be an http:// or https:// URL' };
  if (u.username || u.password) return { problem: 'must not contain a user name or password' };
  if (value.includes('?') || value.includes('#')) return { problem: 'must not have a query (?) or fragment (#)' };
  if (u.pathname !== '/') return { problem: 'must not have a path: cnpj-api is served at the root of its host' };
  return { url: u.origin };
}
