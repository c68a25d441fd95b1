// `cnpj-api release`: signing keys, publishing a snapshot as a release, pulling one
// (docs/releases.md). The release modules are loaded on use: every command module is loaded to
// build --help, and the AWS SDK behind s3:// is large.
import type { Argv, CommandModule } from 'yargs';
import type { PublishResult } from '../../storage/releases/publish.ts';
import type { PullResult } from '../../storage/releases/pull.ts';
import { CliError } from '../errors.ts';
import { dataDirOf, keepSnapshotsOption, numberOption, type GlobalArgs } from '../options.ts';

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

interface KeygenArgs extends GlobalArgs {
  out: string;
}

const keygen: CommandModule<GlobalArgs, KeygenArgs> = {
  command: 'keygen',
  describe: 'write a new signing key pair: release.key (secret, mode 0600) and release.pub (for --trust)',
  builder: (y) => y.option('out', { type: 'string', demandOption: true, describe: 'folder for the two files' }),
  handler: async (argv) => {
    const { generateKeyPair } = await import('../../storage/releases/signing.ts');
    try {
      const k = generateKeyPair(argv.out);
      console.log(
        `key ${k.id}: secret ${k.secretFile} (keep it on the importing machine only), public ${k.publicFile}`,
      );
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  },
};

export interface PublishArgs {
  to?: string;
  key?: string;
  keep?: number;
}

/** Publishes and prints; shared by `release publish` and `import`/`update --publish-to`. */
export async function publishTo(
  dataDir: string,
  to: string,
  keyFile: string,
  extra: { snapshot?: string; keep?: number; json?: boolean; chunkBytes?: number; quiet?: boolean },
): Promise<PublishResult> {
  const { readSecretKey } = await import('../../storage/releases/signing.ts');
  const { openStore } = await import('../../storage/releases/open-store.ts');
  const { publishRelease } = await import('../../storage/releases/publish.ts');
  let result: PublishResult;
  try {
    const key = readSecretKey(keyFile);
    const store = await openStore(to);
    try {
      result = await publishRelease({
        dataDir,
        store,
        key,
        snapshot: extra.snapshot,
        keep: extra.keep,
        chunkBytes: extra.chunkBytes,
        log: (l) => console.error(l),
      });
    } finally {
      await store.close();
    }
  } catch (err) {
    throw new CliError(`release publish: ${(err as Error).message}`);
  }
  if (extra.json) console.log(JSON.stringify(result, null, 2));
  else {
    // The id alone on stdout, for scripts; nothing there when the caller prints its own JSON.
    if (!extra.quiet) console.log(result.release);
    console.error(
      `published release ${result.release} (month ${result.month}, snapshot ${result.snapshot}) to ${to}: ${result.files} files, ${mb(result.bytes)}, ${mb(result.uploaded)} uploaded in ${result.seconds.toFixed(1)} s` +
        (result.historyMonths.length ? `; history months ${result.historyMonths.join(', ')}` : '') +
        (result.latest ? '; latest.json points at it' : '; latest.json left at a newer month') +
        (result.pruned.length ? `; pruned ${result.pruned.join(', ')}` : ''),
    );
  }
  return result;
}

export function withPublishOptions<T>(y: Argv<T>) {
  return y
    .option('publish-to', {
      type: 'string',
      describe:
        'after a successful import, publish the month as a release to this folder or s3://bucket/prefix (needs --key)',
    })
    .option('key', { type: 'string', describe: 'release signing key (release.key from `cnpj-api release keygen`)' });
}

/** Refuses `--publish-to` without `--key` (and the reverse) before an import starts. */
export function checkPublishOptions(argv: { 'publish-to'?: string; key?: string }): void {
  if (argv['publish-to'] !== undefined && argv.key === undefined) throw new CliError('--publish-to needs --key FILE');
  if (argv.key !== undefined && argv['publish-to'] === undefined) throw new CliError('--key is used with --publish-to');
}

interface PublishCmdArgs extends GlobalArgs, PublishArgs {
  snapshot?: string;
  json?: boolean;
  'chunk-bytes'?: number;
}

const publish: CommandModule<GlobalArgs, PublishCmdArgs> = {
  command: 'publish',
  describe:
    'publish the active snapshot (or --snapshot ID) with its change history as a signed release; prints the release id',
  builder: (y) =>
    y
      .option('to', { type: 'string', demandOption: true, describe: 'a folder (local, NFS) or s3://bucket/prefix' })
      .option('key', { type: 'string', demandOption: true, describe: 'the signing key (release.key)' })
      .option('snapshot', { type: 'string', describe: 'a snapshot id (`cnpj-api status`); default the active one' })
      .option(
        'keep',
        numberOption(
          'keep',
          { integer: true, min: 1 },
          { describe: 'releases kept at the target, older ones deleted (default: all)' },
        ),
      )
      .option(
        'chunk-bytes',
        numberOption(
          'chunk-bytes',
          { integer: true, min: 65536 },
          {
            hidden: true,
            describe: 'bytes per hashed chunk (default 64 MiB): what a pull fetches again after a fault',
          },
        ),
      )
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' }),
  handler: async (argv) => {
    await publishTo(dataDirOf(argv), argv.to!, argv.key!, {
      snapshot: argv.snapshot,
      keep: argv.keep,
      json: argv.json,
      chunkBytes: argv['chunk-bytes'],
    });
  },
};

interface PullArgs extends GlobalArgs {
  from: string;
  trust: string[];
  release?: string;
  'allow-older'?: boolean;
  parallel?: number;
  keep?: number;
  json?: boolean;
  retries?: number;
}

export function trustedKeys(files: string[]) {
  return import('../../storage/releases/signing.ts').then(({ readPublicKey }) => {
    try {
      return files.map((f) => readPublicKey(f));
    } catch (err) {
      throw new CliError((err as Error).message);
    }
  });
}

const pull: CommandModule<GlobalArgs, PullArgs> = {
  command: 'pull',
  describe:
    'fetch the newest (or --release ID) release, verify every byte and switch to it atomically (a running server follows)',
  builder: (y) =>
    y
      .option('from', {
        type: 'string',
        demandOption: true,
        describe: 'a folder, an http(s):// URL or s3://bucket/prefix',
      })
      .option('trust', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'public key file(s) a release must be signed with (release.pub)',
      })
      .option('release', { type: 'string', describe: 'a release id; default the one latest.json names' })
      .option('allow-older', {
        type: 'boolean',
        default: false,
        describe: 'switch to a release of an earlier month than the served one',
      })
      .option(
        'parallel',
        numberOption(
          'parallel',
          { integer: true, min: 1, max: 64 },
          { default: 4, describe: 'ranges fetched at once' },
        ),
      )
      .option('keep', keepSnapshotsOption())
      .option(
        'retries',
        numberOption(
          'retries',
          { integer: true, min: 0, max: 100 },
          { default: 8, describe: 'attempts after a network failure without progress (backoff 1 s doubling to 60 s)' },
        ),
      )
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' }),
  handler: async (argv) => {
    const trusted = await trustedKeys(argv.trust);
    const { openStore } = await import('../../storage/releases/open-store.ts');
    const { pullRelease } = await import('../../storage/releases/pull.ts');
    let r: PullResult;
    try {
      const store = await openStore(argv.from, { connections: argv.parallel, net: { maxRetries: argv.retries } });
      try {
        r = await pullRelease({
          dataDir: dataDirOf(argv),
          store,
          trusted,
          release: argv.release,
          allowOlder: argv['allow-older'],
          parallel: argv.parallel,
          keep: argv.keep,
          net: { maxRetries: argv.retries },
          log: (l) => console.error(l),
        });
      } finally {
        await store.close();
      }
    } catch (err) {
      throw new CliError(`release pull: ${(err as Error).message}; the served month is unchanged`);
    }
    if (argv.json) return void console.log(JSON.stringify(r, null, 2));
    if (r.status === 'current')
      return void console.log(`already serving release ${r.release} (month ${r.month}, snapshot ${r.snapshot})`);
    console.log(
      `switched to release ${r.release} (month ${r.month}, snapshot ${r.snapshot})${r.previous ? `, replacing ${r.previous}` : ''}: ` +
        `${mb(r.bytes)} verified, ${mb(r.fetched)} fetched, ${mb(r.reused)} already on disk, in ${r.seconds.toFixed(1)} s` +
        (r.historyMerged.length ? `; history months merged: ${r.historyMerged.join(', ')}` : ''),
    );
  },
};

export const releaseCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'release',
  describe: 'signed releases: import once, serve from many machines (keygen, publish, pull; docs/releases.md)',
  builder: (y: Argv<GlobalArgs>) =>
    y.command(keygen).command(publish).command(pull).demandCommand(1, 'Choose a release subcommand; see --help.'),
  handler: () => {},
};
