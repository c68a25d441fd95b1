// `npm start`: the first-run experience. With no registry yet it builds a small SYNTHETIC month,
// imports it, creates a demo account with a web login and an API token, prints a curl line, and
// serves. With a registry present it just serves.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { createAccount, getAccountByName } from '../../domain/accounts/accounts.ts';
import { createToken } from '../../domain/accounts/tokens.ts';
import { createUser } from '../../domain/accounts/users.ts';
import { DEFAULT_HOST, DEFAULT_PORT, dataPaths } from '../../lib/config.ts';
import { openAppDb } from '../../storage/app-db.ts';
import { activeSnapshot } from '../../storage/snapshots/records.ts';
import type { Sqlite } from '../../storage/sqlite.ts';
import { CliError } from '../errors.ts';
import { assertCanListen, listenError } from '../listen.ts';
import { dataDirOf, numberOption, PORT_RULE, proxyOptionsOf, withProxyOptions, type GlobalArgs, type ProxyArgs } from '../options.ts';

interface Args extends GlobalArgs, ProxyArgs {
  host: string;
  port: number;
  companies: number;
}

const DEMO_ACCOUNT = 'demo';
const DEMO_EMAIL = 'demo@example.com';
const SERPRO_BRANCH = '33683111000280';

export const startCommand: CommandModule<GlobalArgs, Args> = {
  command: 'start',
  describe: 'first run: build a small synthetic month if no registry exists, create a demo token, and serve',
  builder: (y) =>
    withProxyOptions(y)
      .option('host', { type: 'string', default: DEFAULT_HOST })
      .option('port', numberOption('port', PORT_RULE, { default: DEFAULT_PORT }))
      .option('companies', numberOption('companies', { integer: true, min: 1 }, { default: 20_000, describe: 'size of the synthetic month' })),
  handler: async (argv) => {
    const { runImport } = await import('../../importer/run.ts');
    const { generateDump } = await import('../../demo/generate.ts');
    const { startServer } = await import('../../server/server.ts');
    const proxy = proxyOptionsOf(argv);
    // Before anything is generated or created: a taken port would leave a demo account behind.
    await assertCanListen(argv.host, argv.port);
    const dataDir = dataDirOf(argv);
    const paths = dataPaths(dataDir);
    const app = await openAppDb(dataDir);
    let demo: { token: string; password: string | null; cnpj: string } | null = null;
    try {
      if (!activeSnapshot(app.sqlite, paths.registryDir)) {
        const month = new Date().toISOString().slice(0, 7);
        const out = path.join(dataDir, 'synthetic', month);
        console.log(`No registry in ${dataDir} yet: generating a SYNTHETIC month (${argv.companies.toLocaleString('en-US')} fictitious companies, not real data) ...`);
        fs.rmSync(out, { recursive: true, force: true });
        const manifest = await generateDump({ companies: argv.companies, out, seed: 1, month });
        const s = await runImport({ dataDir, inputs: [out], month, synthetic: true, progress: process.stderr.isTTY, skipSpaceCheck: true });
        fs.rmSync(out, { recursive: true, force: true });
        console.log(`Imported synthetic snapshot ${s.snapshotId} in ${s.stats.seconds.toFixed(1)} s.`);
        demo = { ...(await createDemo(app.sqlite, demoPassword(app.sqlite))), cnpj: manifest.sampleCnpjs.includes(SERPRO_BRANCH) ? SERPRO_BRANCH : manifest.sampleCnpjs[0] };
      }
    } catch (e) {
      await app.close();
      throw new CliError((e as Error).message);
    }
    await app.close();

    const server = await startServer({ dataDir, host: argv.host, port: argv.port, ...proxy }).catch((e: unknown) => {
      throw listenError(e, argv.host, argv.port);
    });
    const base = proxy.publicUrl ?? server.url;
    const listening = proxy.publicUrl ? `${server.url}, public URL ${base}` : server.url;
    console.log(`\ncnpj-api is serving on ${listening}  (API docs: ${base}/docs, web app: ${base}/login)`);
    if (demo) {
      console.log(`\nDemo API token (shown once, keep it):\n  ${demo.token}\n`);
      console.log(`Try it:\n  curl -H "Authorization: Bearer ${demo.token}" ${base}/api/v1/brazilian_companies/${demo.cnpj}/company\n`);
      if (demo.password) console.log(`Web app login: ${DEMO_EMAIL} / ${demo.password}\n`);
    } else {
      console.log('Create an API token with: npx cnpj-api tokens create --account <name> --name <label>');
    }
    const stop = async () => {
      await server.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};

/** A fresh random password for the demo login, or null when the demo user already exists. */
function demoPassword(sqlite: Sqlite): string | null {
  const exists = sqlite.prepare('SELECT 1 FROM users WHERE email = ?').get(DEMO_EMAIL);
  return exists ? null : crypto.randomBytes(9).toString('base64url');
}

async function createDemo(sqlite: Sqlite, password: string | null): Promise<{ token: string; password: string | null }> {
  const account = getAccountByName(sqlite, DEMO_ACCOUNT) ?? createAccount(sqlite, { name: DEMO_ACCOUNT, plan: 'Diamante' });
  if (password) await createUser(sqlite, { accountId: account.id, email: DEMO_EMAIL, password, role: 'billing_admin' });
  const { token } = createToken(sqlite, { accountId: account.id, name: 'demo', createdBy: 'cli' });
  return { token, password };
}
