// `cnpj-api release`: signing keys, publishing a snapshot as a release, pulling one
// (docs/releases.md). The release modules are loaded on use: every command module is loaded to
// build --help, and the AWS SDK behind s3:// is large.
import type { Argv, CommandModule } from 'yargs';
import type { PublishResult } from '../../storage/releases/publish.ts';
import type { PullResult } from '../../storage/releases/pull.ts';
import { DATABASE_URL_ENV } from '../../storage/app/store.ts';
import os from 'node:os';
import { parseDuration } from '../../lib/duration.ts';
import { CliError } from '../errors.ts';
import { databaseUrlOf, dataDirOf, keepSnapshotsOption, numberOption, type GlobalArgs } from '../options.ts';

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
  'switch-after': string;
}

/** `--switch-after 2h`: how long a fleet waits for every node to stage a release. */
function switchAfterOf(value: string): number {
  const ms = parseDuration(value);
  if (ms === null) throw new CliError(`invalid --switch-after "${value}": a duration such as 30s, 10m or 2h`);
  return Math.round(ms / 1000);
}

const switchAfterOption = {
  type: 'string',
  default: '2h',
  describe:
    'fleet mode: once this long has passed, the nodes that staged the release switch without waiting for the others (30s, 10m, 2h)',
} as const;

/** Points the fleet in the shared PostgreSQL at a release, and says what happened. */
async function setFleetTarget(
  databaseUrl: string,
  change: (
    db: import('kysely').Kysely<import('../../storage/app/schema.ts').AppDatabase>,
    by: string,
  ) => Promise<import('../../storage/app/fleet-release.ts').TargetChange>,
): Promise<void> {
  const { openAppPostgres } = await import('../../storage/app/postgres.ts');
  const { redactDatabaseUrl } = await import('../../storage/app/store.ts');
  const where = redactDatabaseUrl(databaseUrl);
  let pgStore;
  try {
    pgStore = await openAppPostgres(databaseUrl, { maxConnections: 1 });
  } catch (err) {
    throw new CliError(`cannot reach the fleet's database ${where}: ${(err as Error).message}`);
  }
  try {
    const r = await change(pgStore.db, os.hostname());
    console.error(
      r.moved
        ? `the fleet (${where}) now targets it (generation ${r.generation}): following nodes pull it and switch together`
        : `the fleet's target is unchanged: ${r.reason}`,
    );
  } catch (err) {
    throw new CliError((err as Error).message);
  } finally {
    await pgStore.close();
  }
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
      .option('switch-after', switchAfterOption)
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' }),
  handler: async (argv) => {
    // Checked before anything is published.
    const databaseUrl = databaseUrlOf(argv);
    const switchAfter = switchAfterOf(argv['switch-after']);
    const r = await publishTo(dataDirOf(argv), argv.to!, argv.key!, {
      snapshot: argv.snapshot,
      keep: argv.keep,
      json: argv.json,
      chunkBytes: argv['chunk-bytes'],
    });
    if (databaseUrl === undefined) return;
    const { recordFleetRelease } = await import('../../storage/app/fleet-release.ts');
    await setFleetTarget(databaseUrl, (db, by) =>
      recordFleetRelease(db, {
        release: r.release,
        month: r.month,
        manifestSha256: r.manifestSha256,
        by,
        switchAfterSeconds: switchAfter,
      }),
    );
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
  hold?: boolean;
}

/** `release pull --hold`: says "staged" on stdout, then waits for a `switch` line on stdin. */
function holdForSwitch(staged: { release: string; month: string }): Promise<void> {
  console.log(JSON.stringify({ status: 'staged', ...staged }));
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      if (!buf.split('\n').some((l) => l.trim() === 'switch')) return;
      process.stdin.off('data', onData).off('end', onEnd);
      // Nothing more is read: stdin must not keep the process alive once the switch is done.
      process.stdin.destroy();
      resolve();
    };
    const onEnd = () =>
      reject(new Error(`release ${staged.release} is staged, and stdin closed before the word to switch`));
    process.stdin.on('data', onData).once('end', onEnd);
  });
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
      .option('hold', {
        type: 'boolean',
        default: false,
        describe:
          'once verified, print {"status":"staged"} and switch only when a line "switch" arrives on stdin (how serve --follow switches a fleet together)',
      })
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
          hold: argv.hold ? holdForSwitch : undefined,
        });
      } finally {
        await store.close();
      }
    } catch (err) {
      throw new CliError(`release pull: ${(err as Error).message}; the served month is unchanged`);
    }
    // One line: with --hold, stdout is read line by line.
    if (argv.json) return void console.log(JSON.stringify(r, null, argv.hold ? undefined : 2));
    if (r.status === 'current')
      return void console.log(`already serving release ${r.release} (month ${r.month}, snapshot ${r.snapshot})`);
    console.log(
      `switched to release ${r.release} (month ${r.month}, snapshot ${r.snapshot})${r.previous ? `, replacing ${r.previous}` : ''}: ` +
        `${mb(r.bytes)} verified, ${mb(r.fetched)} fetched, ${mb(r.reused)} already on disk, in ${r.seconds.toFixed(1)} s` +
        (r.historyMerged.length ? `; history months merged: ${r.historyMerged.join(', ')}` : ''),
    );
  },
};

interface ActivateArgs extends GlobalArgs {
  release: string;
  'switch-after': string;
}

const activate: CommandModule<GlobalArgs, ActivateArgs> = {
  command: 'activate <release>',
  describe:
    'fleet mode: point every node at a release published to the fleet before (a rollback, or forward again); they switch together',
  builder: (y) =>
    y
      .positional('release', { type: 'string', demandOption: true, describe: 'a release id (`cnpj-api status`)' })
      .option('switch-after', switchAfterOption),
  handler: async (argv) => {
    const databaseUrl = databaseUrlOf(argv);
    if (databaseUrl === undefined)
      throw new CliError(
        `release activate needs the fleet's database: --database-url or ${DATABASE_URL_ENV} (a single node switches with \`release pull --release ID --allow-older\`)`,
      );
    const switchAfter = switchAfterOf(argv['switch-after']);
    const { activateFleetRelease } = await import('../../storage/app/fleet-release.ts');
    await setFleetTarget(databaseUrl, (db, by) => activateFleetRelease(db, argv.release, by, switchAfter));
  },
};

export const releaseCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'release',
  describe:
    'signed releases: import once, serve from many machines (keygen, publish, pull, activate; docs/releases.md)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .command(keygen)
      .command(publish)
      .command(pull)
      .command(activate)
      .demandCommand(1, 'Choose a release subcommand; see --help.'),
  handler: () => {},
};
