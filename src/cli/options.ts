// Options every command shares.
import type { Argv } from 'yargs';
import { resolveDataDir } from '../config.ts';

export interface GlobalArgs {
  'data-dir'?: string;
  verbose?: boolean;
}

export function withGlobalOptions<T>(y: Argv<T>) {
  return y
    .option('data-dir', { type: 'string', describe: 'data directory (env CNPJ_API_DATA_DIR, default ./data)' })
    .option('verbose', { type: 'boolean', default: false, describe: 'print stack traces on failure' });
}

export function dataDirOf(argv: GlobalArgs): string {
  return resolveDataDir(argv['data-dir']);
}
