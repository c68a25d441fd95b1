import type { Argv, CommandModule } from 'yargs';
import { DownloadError, downloadMonth, formatDownloadSummary } from '../../../importer/download/month.ts';
import { CliError } from '../errors.ts';
import { dataDirOf, numberOption, type GlobalArgs } from '../options.ts';

export interface SourceArgs extends GlobalArgs {
  source?: string;
  'regime-source'?: string;
  parallel: number;
  'stall-timeout': number;
  retries: number;
}

interface Args extends SourceArgs {
  month: string;
  out?: string;
  recheck: boolean;
}

/** Options `download` and `update` share. */
export function sourceOptions<T>(y: Argv<T>) {
  return y
    .option('source', {
      type: 'string',
      describe:
        'where the monthly folders are: a Nextcloud share (https://TOKEN@host/public.php/webdav/) or an HTTP mirror with YYYY-MM/ folders ' +
        '(env CNPJ_API_SOURCE; default the Receita Federal share)',
    })
    .option('regime-source', {
      type: 'string',
      describe:
        'folder with the tax-regime zips (share or HTTP mirror), or "none" (env CNPJ_API_REGIME_SOURCE; default the Receita Federal share)',
    })
    .option(
      'parallel',
      numberOption('parallel', { integer: true, min: 1, max: 64 }, { default: 3, describe: 'parallel connections' }),
    )
    .option(
      'stall-timeout',
      numberOption(
        'stall-timeout',
        { min: 0, minExclusive: true },
        { default: 30, describe: 'seconds without data before a connection is dropped and resumed' },
      ),
    )
    .option(
      'retries',
      numberOption(
        'retries',
        { integer: true, min: 0 },
        { default: 8, describe: 'consecutive failed attempts (without progress) before a file is given up' },
      ),
    );
}

export function netOf(argv: SourceArgs) {
  return { stallTimeoutMs: Math.round(argv['stall-timeout'] * 1000), maxRetries: argv.retries };
}

/** Turns the download layer's one-sentence errors into CliErrors (no stack trace without --verbose). */
export function cliErrorOf(err: unknown): unknown {
  if (err instanceof CliError) return err;
  if (
    err instanceof Error &&
    /^(DownloadError|FatalDownloadError|NotFoundError|HttpStatusError|ZipError|ImportError)$/.test(err.name)
  ) {
    return new CliError(err.message);
  }
  return err;
}

export const downloadCommand: CommandModule<GlobalArgs, Args> = {
  command: 'download',
  describe: "fetch a month's zips and the tax-regime files, with resume, retries and a zip integrity test",
  builder: (y) =>
    sourceOptions(y)
      .option('month', { type: 'string', default: 'latest', describe: 'YYYY-MM or latest' })
      .option('out', { type: 'string', describe: 'target folder (default <data-dir>/downloads/YYYY-MM)' })
      .option('recheck', {
        type: 'boolean',
        default: false,
        describe: 're-run the zip test on files already complete',
      }),
  handler: async (argv) => {
    try {
      const summary = await downloadMonth({
        dataDir: dataDirOf(argv),
        month: argv.month,
        out: argv.out,
        source: argv.source,
        regimeSource: argv['regime-source'],
        parallel: argv.parallel,
        net: netOf(argv),
        recheck: argv.recheck,
      });
      console.log(formatDownloadSummary(summary));
    } catch (err) {
      if (err instanceof DownloadError && err.summary) console.log(formatDownloadSummary(err.summary));
      throw cliErrorOf(err);
    }
  },
};
