// Options every command shares.
import type { Argv } from 'yargs';
import { parsePublicUrl, PUBLIC_URL_ENV, resolveDataDir } from '../config.ts';
import { CliError } from './errors.ts';

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

export interface ProxyArgs {
  'public-url'?: string;
  'trust-proxy': boolean;
}

/** `serve` and `start` behind a reverse proxy (docs/deploy.md). */
export function withProxyOptions<T>(y: Argv<T>) {
  return y
    .option('public-url', { type: 'string', describe: `base URL users see in the docs and examples, e.g. https://cnpj.example.com (env ${PUBLIC_URL_ENV})` })
    .option('trust-proxy', {
      type: 'boolean',
      default: false,
      describe: 'take client addresses and https from X-Forwarded-For/-Proto (only when a reverse proxy you run is the only way in)',
    });
}

/** The validated options for startServer(); a bad public URL names the flag or variable it came from. */
export function proxyOptionsOf(argv: ProxyArgs): { publicUrl?: string; trustProxy: boolean } {
  const flag = argv['public-url'];
  if (Array.isArray(flag)) throw new CliError('--public-url given more than once');
  const [source, value] = flag !== undefined ? ['--public-url', flag] : [PUBLIC_URL_ENV, process.env[PUBLIC_URL_ENV] || undefined];
  if (value === undefined) return { trustProxy: argv['trust-proxy'] };
  const parsed = parsePublicUrl(value);
  if ('problem' in parsed) throw new CliError(`invalid ${source} "${value}": ${parsed.problem}`);
  return { publicUrl: parsed.url, trustProxy: argv['trust-proxy'] };
}
