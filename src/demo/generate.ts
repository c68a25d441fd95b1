// Writes a synthetic monthly Receita Federal dump in the real format: the 37 zips of the
// monthly folder plus the 4 regime zips, and manifest.json describing what went in
// (counts, injected quirks, duplicates, rejects, CNPJs that exist). Streaming: every zip
// member is written chunk by chunk; nothing holds a whole file. With `evolveFrom`, the month after
// that dump's instead (evolve.ts): its records drawn again, changed, plus the month's openings.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMonth } from '../lib/month.ts';
import { Bases } from './bases.ts';
import { dayOf } from './days.ts';
import { CsvZip, RegimeFiles } from './dump-files.ts';
import { Drawer, SHARDS, writeCompany, type CompanyRecords } from './draw.ts';
import { EvolveStep, EXTRACTION_DAY, planEvolution, type EvolutionPlan } from './evolve.ts';
import { writeCodeTableZips } from './code-table-zips.ts';
import { buildCodeTables } from './code-tables.ts';
import type { DumpManifest } from './manifest.ts';
import { Rng, Weighted } from './prng.ts';
import { Quirks } from './quirks.ts';
import { fixedRecords } from './real.ts';
import { RowFactory } from './rows.ts';
import { PartnerPool } from './shared-partners.ts';

export type { DumpManifest } from './manifest.ts';

export interface DumpOptions {
  companies: number;
  out: string;
  seed?: number;
  /** YYYY-MM, default 2026-09 */
  month?: string;
  /** multiplier of the base quirk rates, default 1; 0 writes a clean dump */
  quirkRate?: number;
  /**
   * A synthetic dump's folder: write the month after it instead (companies, month and quirk
   * rate then come from its manifest; `seed` seeds the new month's changes).
   */
  evolveFrom?: string;
}

const DEFAULT_MONTH = '2026-09';

export async function generateDump(opts: DumpOptions): Promise<DumpManifest> {
  const plan: EvolutionPlan | null = opts.evolveFrom ? planEvolution(opts.evolveFrom, opts.seed) : null;
  const companies = plan ? plan.base.companies : Math.floor(opts.companies);
  if (!(companies >= 1)) throw new Error('companies must be ≥ 1');
  const seed = plan ? plan.base.seed : (opts.seed ?? 1) >>> 0;
  // The records are drawn as of the base month; names, dates of the files and the manifest are the output month's.
  const baseMonth = plan ? plan.base.month : (opts.month ?? DEFAULT_MONTH);
  const month = plan ? plan.steps[plan.steps.length - 1].month : baseMonth;
  const quirkRate = plan ? plan.base.quirkRate : (opts.quirkRate ?? 1);
  const ym = parseMonth(baseMonth);
  const om = parseMonth(month);
  if (!ym || !om) throw new Error(`month must be YYYY-MM, got ${month}`);
  const { year: y, month: m } = ym;
  const out = opts.out;
  mkdirSync(out, { recursive: true });

  const extractionDay = dayOf(y, m, EXTRACTION_DAY);
  const ymdOf = (yy: number, mm: number) => `${yy}${String(mm).padStart(2, '0')}${EXTRACTION_DAY}`;
  const extractionYmd = ymdOf(y, m);
  const dpart = `D${om.year % 10}${String(om.month).padStart(2, '0')}${EXTRACTION_DAY}`;
  const mtime = new Date(Date.UTC(om.year, om.month - 1, EXTRACTION_DAY, 3, 0, 0));

  const lk = buildCodeTables();
  const rng = new Rng(seed, 1);
  const q = new Quirks(seed, quirkRate, companies);
  const fixed = fixedRecords(extractionYmd);
  const bases = new Bases(seed, new Set(fixed.bases));
  const pool = new PartnerPool(seed, companies, (i) => bases.numericAt(i));
  const f = new RowFactory(rng, lk, extractionDay, pool);
  const zipBytes = new Map<string, number>();
  const files: string[] = [];

  // ---- lookups (tiny; written first) ----
  const counts: Record<string, number> = {};
  for (const { file, rows, bytes } of writeCodeTableZips(lk, q, out, dpart, mtime)) {
    zipBytes.set(file, bytes);
    files.push(file);
    counts[file.replace('.zip', '').toLowerCase()] = rows;
  }

  // ---- the main families ----
  const shardName = (fam: string, i: number) => `${fam}${i}.zip`;
  const member = (i: number, kind: string) => `K3241.K03200Y${i}.${dpart}.${kind}`;
  const emp: CsvZip[] = [];
  const est: CsvZip[] = [];
  const soc: CsvZip[] = [];
  for (let i = 0; i < SHARDS; i++) {
    emp.push(new CsvZip(shardName('Empresas', i), out, member(i, 'EMPRECSV'), mtime));
    est.push(new CsvZip(shardName('Estabelecimentos', i), out, member(i, 'ESTABELE'), mtime));
    soc.push(new CsvZip(shardName('Socios', i), out, member(i, 'SOCIOCSV'), mtime));
  }
  const simples = new CsvZip('Simples.zip', out, `F.K03200$W.SIMPLES.CSV.${dpart}`, mtime);
  // Shard 0 is 3–4× larger than the others, as in the real dumps.
  const shardPick = new Weighted<number>(Array.from({ length: SHARDS }, (_, i) => [i, i === 0 ? 3.5 : 1] as const));
  const regimes = new RegimeFiles(out, mtime);
  const sinks = { emp, est, soc, simples, regimes };

  const counters = {
    rejects: { empresas: 0, estabelecimentos: 0, socios: 0 },
    duplicates: { establishments: 0, companies: 0 },
  };
  const { rejects, duplicates } = counters;
  const sampleCnpjs: string[] = [...fixed.cnpjs];
  const sampleStride = Math.max(1, Math.floor(companies / 17));

  // fixed records first
  for (const [s, row] of fixed.empresas) {
    emp[s].row(row);
    emp[s].records++;
  }
  for (const [s, row] of fixed.estabelecimentos) {
    est[s].row(row);
    est[s].records++;
  }
  for (const [s, row] of fixed.socios) {
    soc[s].row(row);
    soc[s].records++;
  }
  for (const row of fixed.simples) {
    simples.row(row);
    simples.records++;
  }
  for (const r of fixed.regimes) regimes.write(r);

  const env = { lk, pool, bases, shardPick, companies };
  const steps = (plan?.steps ?? []).map((s, k, all) => new EvolveStep(s, env, k ? all[k - 1].month : baseMonth));
  const drawer = new Drawer(rng, q, f, bases, shardPick, counters);
  const evolveAndWrite = (rec: CompanyRecords, fromStep: number) => {
    for (let k = fromStep; k < steps.length; k++) steps[k].apply(rec);
    writeCompany(sinks, rec);
  };
  for (let i = 0; i < companies; i++) {
    const rec = drawer.draw(i);
    evolveAndWrite(rec, 0);
    if (rec.clean && i % sampleStride === Math.floor(sampleStride / 2) && sampleCnpjs.length < 20)
      sampleCnpjs.push(rec.estabs[0].cnpj);
  }
  // Each month's openings go after the companies of the month before; later months change them too.
  steps.forEach((st, k) => {
    for (const rec of st.openings()) evolveAndWrite(rec, k + 1);
  });

  // ---- close everything ----
  const closeShard = (z: CsvZip, family: string) => {
    // A blank last line was seen in Estabelecimentos7 (Feb 2025); always there when quirks are on.
    if (q.enabled && (z.file === 'Estabelecimentos7.zip' || q.rng.chance(0.03 * quirkRate))) {
      z.raw('\n');
      q.hit('trailingBlankLine', z.file);
    }
    counts[family] = (counts[family] ?? 0) + z.records;
    zipBytes.set(z.file, z.close());
    files.push(z.file);
  };
  for (const z of emp) closeShard(z, 'empresas');
  for (const z of est) closeShard(z, 'estabelecimentos');
  for (const z of soc) closeShard(z, 'socios');
  closeShard(simples, 'simples');

  for (const [file, bytes] of regimes.close()) {
    zipBytes.set(file, bytes);
    files.push(file);
  }
  counts.regimes = regimes.rows;
  // The replay must be the dump it evolves: same quirks in the same places.
  if (
    plan &&
    JSON.stringify({ ...q.counts, ...duplicates }) !== JSON.stringify({ ...plan.from.quirks, ...plan.from.duplicates })
  ) {
    throw new Error(
      `${opts.evolveFrom}: drawing its records again gave other quirks; was it made by another version of the generator?`,
    );
  }

  const expectedRejects = rejects.empresas + rejects.estabelecimentos + rejects.socios;
  const last = plan?.steps[plan.steps.length - 1];
  const manifest: DumpManifest = {
    month,
    synthetic: true,
    seed: last ? last.seed : seed,
    companies,
    quirkRate,
    ...(plan && {
      evolvedFrom: { month: plan.from.month, seed: plan.from.seed },
      evolution: { base: plan.base, steps: plan.steps },
      changes: steps[steps.length - 1].changes,
    }),
    files: files.sort(),
    counts,
    quirks: { ...q.counts },
    duplicates,
    sampleCnpjs,
    expectedRejects,
    rejects,
    expectedRows: {
      empresas: counts.empresas - duplicates.companies,
      estabelecimentos: counts.estabelecimentos - duplicates.establishments,
      socios: counts.socios,
      simples: counts.simples,
      regimes: counts.regimes,
    },
    examples: { ...q.examples },
    extractionDate: ymdOf(om.year, om.month),
    totalZipBytes: [...zipBytes.values()].reduce((a, b) => a + b, 0),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}
