// The registry the API benchmark runs against, the CNPJs it asks for and the token it asks with.
import fs from 'node:fs';
import path from 'node:path';

export async function ensureRegistry(dataDir: string, companies: number): Promise<void> {
  const { openAppDb } = await import('../../src/storage/app/sqlite.ts');
  const { activeSnapshot } = await import('../../src/storage/snapshots/records.ts');
  const { dataPaths } = await import('../../src/lib/config.ts');
  const app = await openAppDb(dataDir);
  const snap = activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir);
  await app.close();
  const have = snap?.stats.tables.companies?.rows ?? 0;
  if (have >= companies) {
    console.log(`reusing snapshot ${snap!.id} in ${dataDir}: ${have.toLocaleString('en-US')} companies`);
    return;
  }
  // The real pipeline: the synthetic dump generator, then the importer.
  const { generateDump } = await import('../../src/demo/generate.ts');
  const { runImport } = await import('../../importer/run.ts');
  const out = path.join(dataDir, 'bench-dump');
  fs.rmSync(out, { recursive: true, force: true });
  let t = performance.now();
  console.log(`generating a synthetic dump of ${companies.toLocaleString('en-US')} companies ...`);
  await generateDump({ companies, out, seed: 7, month: '2026-09' });
  console.log(`  ${((performance.now() - t) / 1000).toFixed(1)} s; importing ...`);
  t = performance.now();
  const s = await runImport({ dataDir, inputs: [out], month: '2026-09', synthetic: true, skipSpaceCheck: true });
  console.log(`  imported ${s.snapshotId} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  fs.rmSync(out, { recursive: true, force: true });
}

/** n distinct random CNPJs of the active snapshot (all of them, shuffled, if it has no more). */
export async function sampleCnpjs(dataDir: string, n: number): Promise<string[]> {
  const { openAppDb } = await import('../../src/storage/app/sqlite.ts');
  const { activeSnapshot } = await import('../../src/storage/snapshots/records.ts');
  const { dataPaths } = await import('../../src/lib/config.ts');
  const { openSqlite } = await import('../../src/storage/sqlite.ts');
  const app = await openAppDb(dataDir);
  const snap = activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir)!;
  await app.close();
  const est = openSqlite(path.join(snap.dir, 'establishments.db'), { readonly: true, fileMustExist: true });
  try {
    const { m: max, c: count } = est.prepare('SELECT max(rowid) AS m, count(*) AS c FROM establishments').get() as {
      m: number;
      c: number;
    };
    if (n * 2 >= count) {
      // Drawing nearly all of them at random would take ever longer to find the last ones.
      const all = est.prepare('SELECT cnpj FROM establishments').pluck().all() as string[];
      for (let i = all.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [all[i], all[j]] = [all[j], all[i]];
      }
      return all.slice(0, n);
    }
    const st = est.prepare('SELECT cnpj FROM establishments WHERE rowid = ?').pluck();
    const out = new Set<string>();
    while (out.size < n) {
      const c = st.get(1 + Math.floor(Math.random() * max)) as string | undefined;
      if (c) out.add(c);
    }
    return [...out];
  } finally {
    est.close();
  }
}

/** A token of a new account on the Bench plan (a billion calls), or on a plan of `quota` calls a month. */
export async function benchToken(dataDir: string, quota?: number): Promise<string> {
  const { openAppStore } = await import('../../src/storage/app/store.ts');
  const { setPlan } = await import('../../src/domain/accounts/plans.ts');
  const { createAccount } = await import('../../src/domain/accounts/accounts.ts');
  const { createToken } = await import('../../src/domain/accounts/tokens.ts');
  const app = await openAppStore(dataDir);
  try {
    const plan = quota === undefined ? 'Bench' : `Bench ${quota}`;
    await setPlan(app, plan, { monthlyQuota: quota ?? 1_000_000_000, apiIncluded: true });
    const acct = await createAccount(app, { name: `bench-${Date.now()}-${plan}`, plan });
    return (await createToken(app, { accountId: acct.id, name: 'bench', createdBy: 'cli' })).token;
  } finally {
    await app.close();
  }
}

/**
 * Fleet mode: the same plan, account and token written into the PostgreSQL app schema at `url`
 * (migrated on open), with the statements the domain writes on both backends.
 */
export async function benchTokenPostgres(dataDir: string, url: string): Promise<string> {
  const { openAppStore } = await import('../../src/storage/app/store.ts');
  const { displayPrefix, generateToken, hashToken } = await import('../../src/domain/metering/token-format.ts');
  const store = await openAppStore(dataDir, url);
  try {
    await store.db
      .insertInto('plans')
      .values({ name: 'Bench', monthly_quota: 1_000_000_000, api_included: 1 })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const at = new Date().toISOString();
    const acct = await store.db
      .insertInto('accounts')
      .values({ name: `bench-${Date.now()}`, plan: 'Bench', status: 'active', created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = generateToken();
    await store.db
      .insertInto('api_tokens')
      .values({
        account_id: acct.id,
        name: 'bench',
        token_hash: hashToken(token),
        display_prefix: displayPrefix(token),
        expires_at: null,
        enabled: 1,
        created_at: at,
        created_by: 'cli',
      })
      .execute();
    return token;
  } finally {
    await store.close();
  }
}
