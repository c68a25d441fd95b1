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
}

export function dataPaths(dataDir: string): DataPaths {
  return {
    root: dataDir,
    appDb: path.join(dataDir, 'app.db'),
    registryDir: path.join(dataDir, 'registry'),
  };
}
