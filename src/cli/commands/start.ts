// `npm start`: the first-run experience. With no registry yet it builds a small SYNTHETIC month,
// imports it, creates a demo account with a web login and an API token, prints a curl line, and
// serves. With a registry present it just serves.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { createAccount, getAccountByName } from '../../domain/accounts/accounts.ts';
import { createToken } from '../../domain/accounts/tokens.ts';
import { createUser, getUserByEmail } from '../../domain/accounts/users.ts';
import { addWatched } from '../../domain/watchlist/add.ts';
import { DEFAULT_HOST, DEFAULT_PORT, dataPaths } from '../../lib/config.ts';
import { addMonths } from '../../lib/month.ts';
import type { AppStore } from '../../storage/app/store.ts';
import { activeSnapshot } from '../../storage/snapshots/records.ts';
import { CliError } from '../errors.ts';
import { openStoreOf } from './app-helpers.ts';
import { assertCanListen, listenError } from '../listen.ts';
import {
  databaseUrlOf,
  dataDirOf,
  numberOption,
  PORT_RULE,
  proxyOptionsOf,
  withProxyOptions,
  type GlobalArgs,
  type ProxyArgs,
} from '../options.ts';
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';

interface Args extends GlobalArgs, ProxyArgs {
  host: string;
  port: number;
  companies: number;
}

const DEMO_ACCOUNT = 'demo';
const DEMO_EMAIL = 'demo@example.com';
const SERPRO_BRANCH = EXAMPLE_CNPJ;

export const startCommand: CommandModule<GlobalArgs, Args> = {
  command: 'start',
  describe: 'first run: build a small synthetic month if no registry exists, create a demo token, and serve',
  builder: (y) =>
    withProxyOptions(y)
      .option('host', { type: 'string', default: DEFAULT_HOST })
      .option('port', numberOption('port', PORT_RULE, { default: DEFAULT_PORT }))
      .option(
        'companies',
        numberOption(
          'companies',
          { integer: true, min: 1 },
          { default: 20_000, describe: 'size of the synthetic month' },
        ),
      ),
  handler: async (argv) => {
    const { runImport } = await import('../../../importer/run.ts');
    const { generateDump } = await import('../../demo/generate.ts');
    const { startServer } = await import('../../server/server.ts');
    const { boundHeapGrowth } = await import('../../server/heap.ts');
    const proxy = proxyOptionsOf(argv);
    // Before anything is generated or created: a taken port would leave a demo account behind.
    await assertCanListen(argv.host, argv.port);
    const dataDir = dataDirOf(argv);
    const paths = dataPaths(dataDir);
    const databaseUrl = databaseUrlOf(argv);
    const app = await openStoreOf(argv, 'node');
    let demo: { token: string; password: string | null; cnpj: string; month: string } | null = null;
    try {
      if (!activeSnapshot(app.local.sqlite, paths.registryDir)) {
        // Two months, the second evolved from the first, so the change feed and the companies'
        // histories have something to show from the start.
        const month = new Date().toISOString().slice(0, 7);
        const before = addMonths(month, -1);
        const outs = [before, month].map((m) => path.join(dataDir, 'synthetic', m));
        console.log(
          `No registry in ${dataDir} yet: generating two SYNTHETIC months, ${before} and ${month} (${argv.companies.toLocaleString('en-US')} fictitious companies, not real data) ...`,
        );
        for (const out of outs) fs.rmSync(out, { recursive: true, force: true });
        await generateDump({ companies: argv.companies, out: outs[0], seed: 1, month: before });
        const manifest = await generateDump({ companies: 0, out: outs[1], evolveFrom: outs[0] });
        // The month before serves no search: it is only compared with.
        await runImport({
          dataDir,
          inputs: [outs[0]],
          month: before,
          synthetic: true,
          search: false,
          progress: process.stderr.isTTY,
          skipSpaceCheck: true,
        });
        const s = await runImport({
          dataDir,
          inputs: [outs[1]],
          month,
          synthetic: true,
          progress: process.stderr.isTTY,
          skipSpaceCheck: true,
        });
        fs.rmSync(path.join(dataDir, 'synthetic'), { recursive: true, force: true });
        console.log(`Imported synthetic snapshot ${s.snapshotId} in ${s.stats.seconds.toFixed(1)} s.`);
        // The demo account goes where the server keeps app state (app.db, or --database-url).
        const created = await createDemo(app, await demoPassword(app));
        // A few CNPJs that changed this month on the demo's watchlist: Monitoramento shows them.
        const changed = Object.values(manifest.changes ?? {})
          .flatMap((c) => c.examples.slice(0, 1))
          .slice(0, 10);
        await addWatched(app, created.accountId, changed, new Date());
        demo = {
          ...created,
          cnpj: manifest.sampleCnpjs.includes(SERPRO_BRANCH) ? SERPRO_BRANCH : manifest.sampleCnpjs[0],
          month,
        };
      }
    } catch (e) {
      await app.close();
      throw new CliError((e as Error).message);
    }
    await app.close();

    // Old-generation garbage of a pipelining flood (server/heap.ts).
    boundHeapGrowth();
    const server = await startServer({ dataDir, databaseUrl, host: argv.host, port: argv.port, ...proxy }).catch(
      (e: unknown) => {
        throw listenError(e, argv.host, argv.port);
      },
    );
    const base = proxy.publicUrl ?? server.url;
    const listening = proxy.publicUrl ? `${server.url}, public URL ${base}` : server.url;
    console.log(`\ncnpj-api is serving on ${listening}  (API docs: ${base}/docs, web app: ${base}/login)`);
    if (demo) {
      console.log(`\nDemo API token (shown once, keep it):\n  ${demo.token}\n`);
      console.log(
        `Try it:\n  curl -H "Authorization: Bearer ${demo.token}" ${base}/api/v1/brazilian_companies/${demo.cnpj}/company\n`,
      );
      console.log(
        `What changed this month:\n  curl -H "Authorization: Bearer ${demo.token}" "${base}/api/v1/changes?month=${demo.month}&limit=5"\n`,
      );
      if (demo.password) console.log(`Web app login: ${DEMO_EMAIL} / ${demo.password}\n`);
    } else {
      console.log('Create an API token with: npx cnpj-api tokens create --account <name> --name <label>');
    }
    const stop = () => void server.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};

/** A fresh random password for the demo login, or null when the demo user already exists. */
async function demoPassword(app: AppStore): Promise<string | null> {
  const exists = await getUserByEmail(app, DEMO_EMAIL);
  return exists ? null : crypto.randomBytes(9).toString('base64url');
}

async function createDemo(
  app: AppStore,
  password: string | null,
): Promise<{ token: string; password: string | null; accountId: number }> {
  const account =
    (await getAccountByName(app, DEMO_ACCOUNT)) ?? (await createAccount(app, { name: DEMO_ACCOUNT, plan: 'Diamante' }));
  if (password) await createUser(app, { accountId: account.id, email: DEMO_EMAIL, password, role: 'billing_admin' });
  const { token } = await createToken(app, { accountId: account.id, name: 'demo', createdBy: 'cli' });
  return { token, password, accountId: account.id };
}
