// Options every command shares, and the one way numeric options are declared.
import type { Argv } from 'yargs';
import { parsePublicUrl, PUBLIC_URL_ENV, resolveDataDir } from '../lib/config.ts';
import { DATABASE_URL_ENV, databaseUrlProblem, redactDatabaseUrl } from '../storage/app/store.ts';
import { CliError } from './errors.ts';

export interface GlobalArgs {
  'data-dir'?: string;
  'database-url'?: string;
  verbose?: boolean;
}

export function withGlobalOptions<T>(y: Argv<T>) {
  return y
    .option('data-dir', { type: 'string', describe: 'data directory (env CNPJ_API_DATA_DIR, default ./data)' })
    .option('database-url', {
      type: 'string',
      describe: `PostgreSQL shared by a fleet of nodes for accounts, tokens, usage and sessions, e.g. postgres://user:pass@db:5432/cnpj, or with a standby postgres://user:pass@db1,db2/cnpj?target_session_attrs=read-write (env ${DATABASE_URL_ENV}; default: app.db in the data dir)`,
    })
    .option('verbose', { type: 'boolean', default: false, describe: 'print stack traces on failure' });
}

export function dataDirOf(argv: GlobalArgs): string {
  return resolveDataDir(argv['data-dir']);
}

/**
 * The PostgreSQL URL of fleet mode (--database-url, else the environment), or undefined for the
 * embedded app.db. A malformed URL stops the command naming where it came from.
 */
export function databaseUrlOf(argv: GlobalArgs): string | undefined {
  const flag = argv['database-url'];
  if (Array.isArray(flag)) throw new CliError('--database-url given more than once');
  const [source, value] =
    flag !== undefined ? ['--database-url', flag] : [DATABASE_URL_ENV, process.env[DATABASE_URL_ENV] || undefined];
  if (value === undefined) return undefined;
  const problem = databaseUrlProblem(value);
  if (problem) throw new CliError(`invalid ${source} "${redactDatabaseUrl(value)}": ${problem}`);
  return value;
}

export interface ProxyArgs {
  'public-url'?: string;
  'trust-proxy': boolean;
}

/** `serve` and `start` behind a reverse proxy (docs/deploy.md). */
export function withProxyOptions<T>(y: Argv<T>) {
  return y
    .option('public-url', {
      type: 'string',
      describe: `base URL users see in the docs and examples, e.g. https://cnpj.example.com (env ${PUBLIC_URL_ENV})`,
    })
    .option('trust-proxy', {
      type: 'boolean',
      default: false,
      describe:
        'take client addresses and https from X-Forwarded-For/-Proto (only when a reverse proxy you run is the only way in)',
    });
}

/** The validated options for startServer(); a bad public URL names the flag or variable it came from. */
export function proxyOptionsOf(argv: ProxyArgs): { publicUrl?: string; trustProxy: boolean } {
  const flag = argv['public-url'];
  if (Array.isArray(flag)) throw new CliError('--public-url given more than once');
  const [source, value] =
    flag !== undefined ? ['--public-url', flag] : [PUBLIC_URL_ENV, process.env[PUBLIC_URL_ENV] || undefined];
  if (value === undefined) return { trustProxy: argv['trust-proxy'] };
  const parsed = parsePublicUrl(value);
  if ('problem' in parsed) throw new CliError(`invalid ${source} "${value}": ${parsed.problem}`);
  return { publicUrl: parsed.url, trustProxy: argv['trust-proxy'] };
}

/** The values a numeric option accepts. */
export interface NumberRule {
  integer?: boolean;
  min?: number;
  /** min itself is refused (e.g. a timeout must be > 0). */
  minExclusive?: boolean;
  max?: number;
}

/**
 * A numeric option whose bad values stop the command with a message naming the flag. Declared
 * without yargs' `type: 'number'` on purpose: that turns "abc" into NaN and an empty value into 0
 * before any check could see them, so the raw text is parsed here.
 */
export function numberOption<const O extends { default?: number; describe?: string; demandOption?: boolean }>(
  flag: string,
  rule: NumberRule,
  o: O,
): O & { requiresArg: true; coerce: (raw: unknown) => number } {
  return { ...o, requiresArg: true, coerce: (raw: unknown) => parseNumberFlag(flag, raw, rule) };
}

export function parseNumberFlag(flag: string, raw: unknown, rule: NumberRule): number {
  const text = Array.isArray(raw)
    ? null
    : typeof raw === 'number'
      ? String(raw)
      : typeof raw === 'string'
        ? raw.trim()
        : null;
  const n = text === null || text === '' ? NaN : Number(text);
  const ok =
    Number.isFinite(n) &&
    (!rule.integer || Number.isSafeInteger(n)) &&
    (rule.min === undefined || (rule.minExclusive ? n > rule.min : n >= rule.min)) &&
    (rule.max === undefined || n <= rule.max);
  if (ok) return n;
  const given = Array.isArray(raw) ? 'it was given more than once' : `not "${String(raw ?? '')}"`;
  throw new CliError(`--${flag} must be ${describeRule(rule)}, ${given}`);
}

function describeRule(rule: NumberRule): string {
  const kind = rule.integer ? 'an integer' : 'a number';
  if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
  if (rule.min !== undefined) return `${kind} ${rule.minExclusive ? '>' : '>='} ${rule.min}`;
  if (rule.max !== undefined) return `${kind} <= ${rule.max}`;
  return kind;
}

/** --port of the commands that listen (0: any free port). */
export const PORT_RULE: NumberRule = { integer: true, min: 0, max: 65535 };

/** `--keep N`: the snapshots kept on disk after a new one is published (import, release pull). */
export const keepSnapshotsOption = () =>
  numberOption(
    'keep',
    { integer: true, min: 1 },
    { default: 2, describe: 'snapshots kept on disk, the new active one included' },
  );
