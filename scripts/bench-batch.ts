// Batch lookup and establishments listing benchmark, on a synthetic month imported by the real
// pipeline (reused when the data dir already holds one that large):
//   - a batch of 1,000 random existing CNPJs: the answer built in-process (lookups, mapping,
//     JSON text), and end to end through a real server (its own request-log time);
//   - single lookups of the same CNPJs, for the cost per item;
//   - the listing's range reads on one root of `--root-size` establishments (a table of its own
//     with the snapshot's layout and index): the first page and a page deep into the root.
//
//   node --import tsx scripts/bench-batch.ts [--companies 200000] [--data-dir DIR] [--runs 30] [--root-size 100000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createAccount } from '../src/domain/accounts/accounts.ts';
import { setPlan } from '../src/domain/accounts/plans.ts';
import { createToken } from '../src/domain/accounts/tokens.ts';
import { makeCnpj } from '../src/domain/cnpj.ts';
import { answerBatch, planBatch } from '../src/domain/company/batch.ts';
import { CompanyRegistry } from '../src/domain/company/lookup.ts';
import { MAPPED_COLUMNS } from '../src/domain/company/map.ts';
import { prepareRootRows } from '../src/domain/registry/root-rows.ts';
import { generateDump } from '../src/demo/generate.ts';
import { runImport } from '../importer/run.ts';
import { dataPaths } from '../src/lib/config.ts';
import { startServer } from '../src/server/server.ts';
import { openAppDb } from '../src/storage/app/sqlite.ts';
import { openAppStore } from '../src/storage/app/store.ts';
import { activeSnapshot } from '../src/storage/snapshots/records.ts';
import { createIndexSql, createTableSql, establishments } from '../src/storage/snapshots/tables.ts';
import { openSqlite } from '../src/storage/sqlite.ts';

const { values: args } = parseArgs({
  options: {
    companies: { type: 'string', default: '200000' },
    'data-dir': { type: 'string', default: path.join(os.tmpdir(), 'cnpj-bench-batch') },
    runs: { type: 'string', default: '30' },
    'root-size': { type: 'string', default: '100000' },
  },
});
const companies = Number(args.companies);
const dataDir = args['data-dir']!;
const runs = Number(args.runs);
const rootSize = Number(args['root-size']);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function ensureRegistry(): Promise<string> {
  const app = await openAppDb(dataDir);
  let snap = activeSnapshot(app.sqlite, dataPaths(dataDir).registryDir);
  await app.close();
  if ((snap?.stats.tables.companies?.rows ?? 0) >= companies) return snap!.dir;
  const out = path.join(dataDir, 'bench-dump');
  console.log(
    `generating and importing a synthetic month of ${companies.toLocaleString('en-US')} companies in ${dataDir} ...`,
  );
  await generateDump({ companies, out, seed: 7, month: '2026-09' });
  await runImport({ dataDir, inputs: [out], month: '2026-09', synthetic: true, skipSpaceCheck: true });
  fs.rmSync(out, { recursive: true, force: true });
  const again = await openAppDb(dataDir);
  snap = activeSnapshot(again.sqlite, dataPaths(dataDir).registryDir);
  await again.close();
  return snap!.dir;
}

function sample(dir: string, n: number): string[] {
  const est = openSqlite(path.join(dir, 'establishments.db'), { readonly: true, fileMustExist: true });
  const max = (est.prepare('SELECT max(rowid) AS m FROM establishments').get() as { m: number }).m;
  const st = est.prepare('SELECT cnpj FROM establishments WHERE rowid = ?').pluck();
  const out = new Set<string>();
  while (out.size < n) {
    const c = st.get(1 + Math.floor(Math.random() * max)) as string | undefined;
    if (c) out.add(c);
  }
  est.close();
  return [...out];
}

async function batchInProcess(all: string[]): Promise<void> {
  const registry = new CompanyRegistry({ dataDir, pollMs: 0, contacts: () => [] });
  try {
    const batchMs: number[] = [];
    const singleUs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const cnpjs = all.slice((i * 1000) % (all.length - 1000), ((i * 1000) % (all.length - 1000)) + 1000);
      let t = performance.now();
      const text = JSON.stringify({ results: answerBatch(planBatch(cnpjs), (c) => registry.lookup(c)) });
      batchMs.push(performance.now() - t);
      bytes = text.length;
      t = performance.now();
      for (const c of cnpjs) registry.lookup(c);
      singleUs.push(((performance.now() - t) * 1000) / cnpjs.length);
    }
    console.log(
      `batch of 1,000 found CNPJs, in-process (lookups + mapping + JSON, ${(bytes / 1e6).toFixed(1)} MB): p50 ${ms(pct(batchMs, 50))}, p99 ${ms(pct(batchMs, 99))}, ${((pct(batchMs, 50) * 1000) / 1000).toFixed(1)} µs per item at p50`,
    );
    console.log(`single lookups of the same CNPJs (mapping, no JSON): p50 ${pct(singleUs, 50).toFixed(1)} µs each`);
  } finally {
    registry.close();
  }
}

async function batchOverHttp(all: string[]): Promise<void> {
  const app = await openAppStore(dataDir);
  await setPlan(app, 'Bench', { monthlyQuota: 1_000_000_000, apiIncluded: true });
  const acct = await createAccount(app, { name: `bench-${Date.now()}`, plan: 'Bench' });
  const { token } = await createToken(app, { accountId: acct.id, name: 'bench', createdBy: 'cli' });
  await app.close();
  const lines: string[] = [];
  const server = await startServer({ dataDir, host: '127.0.0.1', port: 0, pollMs: 0, log: (l) => lines.push(l) });
  try {
    const client: number[] = [];
    for (let i = 0; i < runs; i++) {
      const cnpjs = all.slice((i * 1000) % (all.length - 1000), ((i * 1000) % (all.length - 1000)) + 1000);
      const t = performance.now();
      const res = await fetch(`${server.url}/api/v1/brazilian_companies/batch`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ cnpjs }),
      });
      await res.arrayBuffer();
      client.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
    }
    const logged = lines.filter((l) => l.includes('/batch 200')).map((l) => Number(/ ([\d.]+)ms /.exec(l)![1]));
    console.log(
      `batch of 1,000 over HTTP (loopback, durable count included): server log p50 ${ms(pct(logged, 50))}, p99 ${ms(pct(logged, 99))}; client p50 ${ms(pct(client, 50))}`,
    );
  } finally {
    await server.close();
  }
}

/** One root of `rootSize` establishments among others, in the snapshot's table layout and index. */
function rootPaging(): void {
  const file = path.join(dataDir, 'bench-root.db');
  fs.rmSync(file, { force: true });
  const db = openSqlite(file);
  try {
    db.exec(createTableSql(establishments));
    const cols = establishments.columns.map(([n]) => n);
    const ins = db.prepare(`INSERT INTO ${establishments.name} (cnpj, matriz_filial) VALUES (?, ?)`);
    const orders = Array.from({ length: rootSize }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
    db.transaction(() => {
      for (let r = 0; r < 200_000; r++) ins.run(makeCnpj(String(40_000_000 + r), '0001'), 1);
      for (const o of orders)
        ins.run(makeCnpj('12345678', o.toString(36).toUpperCase().padStart(4, '0')), o === 1 ? 1 : 2);
    })();
    db.exec(createIndexSql(establishments));
    db.exec('ANALYZE');
    db.close();
    const reader = openSqlite(':memory:');
    reader.prepare('ATTACH DATABASE ? AS est').run(file);
    reader.prepare('ATTACH DATABASE ? AS reg').run(path.join(activeDir, 'companies.db'));
    const rows = prepareRootRows(reader, MAPPED_COLUMNS);
    const time = (fn: () => void) => {
      const xs: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        fn();
        xs.push((performance.now() - t) * 1000);
      }
      return `p50 ${pct(xs, 50).toFixed(0)} µs, p99 ${pct(xs, 99).toFixed(0)} µs`;
    };
    const deep = makeCnpj('12345678', (20_000).toString(36).toUpperCase().padStart(4, '0'));
    console.log(
      `root of ${rootSize.toLocaleString('en-US')} establishments (${cols.length} columns, rows inserted in random order), limit 100:`,
    );
    console.log(
      `  first page (head office + range): ${time(() => {
        const head = rows.headOffice('12345678');
        rows.after('12345678', '12345678', head?.cnpj ?? null, 100);
      })}`,
    );
    console.log(`  a page 20,000 establishments in (cursor): ${time(() => rows.after('12345678', deep, null, 101))}`);
    reader.close();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const activeDir = await ensureRegistry();
const cnpjs = sample(activeDir, Math.max(2000, Math.min(runs * 1000, 30_000)));
console.log(
  `${cnpjs.length.toLocaleString('en-US')} sampled CNPJs; machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, load ${os.loadavg()[0]!.toFixed(1)}`,
);
await batchInProcess(cnpjs);
await batchOverHttp(cnpjs);
rootPaging();
