// Writes a synthetic monthly Receita Federal dump in the real format: the 37 zips of the
// monthly folder plus the 4 regime zips, and manifest.json describing what went in
// (counts, injected quirks, duplicates, rejects, CNPJs that exist). Streaming: every zip
// member is written chunk by chunk; nothing holds a whole file.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCnpj } from '../domain/cnpj.ts';
import { parseMonth } from '../lib/month.ts';
import { Bases } from './bases.ts';
import type { Company, Establishment } from './company.ts';
import { dayOf } from './days.ts';
import { CsvZip, RegimeFiles } from './dump-files.ts';
import { injectEmpresa, injectEstablishment, mangle } from './inject.ts';
import { writeLookupZips } from './lookup-zips.ts';
import { buildLookups } from './lookups.ts';
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
}

const SHARDS = 10;
const ESTAB_COLS = 30;
const DEFAULT_MONTH = '2026-09';
// Extraction day within the month used in member names and as "today" for all dates.
const EXTRACTION_DAY = 13;

export async function generateDump(opts: DumpOptions): Promise<DumpManifest> {
  const companies = Math.floor(opts.companies);
  if (!(companies >= 1)) throw new Error('companies must be ≥ 1');
  const seed = (opts.seed ?? 1) >>> 0;
  const month = opts.month ?? DEFAULT_MONTH;
  const quirkRate = opts.quirkRate ?? 1;
  const ym = parseMonth(month);
  if (!ym) throw new Error(`month must be YYYY-MM, got ${month}`);
  const { year: y, month: m } = ym;
  const out = opts.out;
  mkdirSync(out, { recursive: true });

  const extractionDay = dayOf(y, m, EXTRACTION_DAY);
  const extractionYmd = `${y}${String(m).padStart(2, '0')}${EXTRACTION_DAY}`;
  const dpart = `D${y % 10}${String(m).padStart(2, '0')}${EXTRACTION_DAY}`;
  const mtime = new Date(Date.UTC(y, m - 1, EXTRACTION_DAY, 3, 0, 0));

  const lk = buildLookups();
  const rng = new Rng(seed, 1);
  const q = new Quirks(seed, quirkRate, companies);
  const fixed = fixedRecords(extractionYmd);
  const bases = new Bases(seed, new Set(fixed.bases));
  const f = new RowFactory(rng, lk, extractionDay, new PartnerPool(seed, companies, (i) => bases.numericAt(i)));
  const zipBytes = new Map<string, number>();
  const files: string[] = [];

  // ---- lookups (tiny; written first) ----
  const counts: Record<string, number> = {};
  for (const { file, rows, bytes } of writeLookupZips(lk, q, out, dpart, mtime)) {
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

  const rejects = { empresas: 0, estabelecimentos: 0, socios: 0 };
  const duplicates = { establishments: 0, companies: 0 };
  const sampleCnpjs: string[] = [...fixed.cnpjs];
  const sampleStride = Math.max(1, Math.floor(companies / 17));

  // fixed records first
  for (const [s, row] of fixed.empresas) { emp[s].row(row); emp[s].records++; }
  for (const [s, row] of fixed.estabelecimentos) { est[s].row(row); est[s].records++; }
  for (const [s, row] of fixed.socios) { soc[s].row(row); soc[s].records++; }
  for (const row of fixed.simples) { simples.row(row); simples.records++; }
  for (const r of fixed.regimes) regimes.write(r);

  const fire = q.fire.bind(q);

  for (let i = 0; i < companies; i++) {
    q.at(i);
    const alnum = f.alnumPossible && rng.chance(0.0003);
    const base = alnum ? bases.nextAlnum(rng) : bases.nextNumeric();
    const c: Company = f.company(i, base, alnum, alnum ? null : f.pool.holdingAt(bases.lastIndex));
    // Empresas
    const e = f.empresaFields(c);
    let dirty = injectEmpresa(q, e, c);
    const es = shardPick.pick(rng);
    emp[es].row(e);
    emp[es].records++;
    if (fire('duplicateCompanyRow', base)) {
      const s2 = q.rng.int(SHARDS);
      emp[s2].row(e);
      emp[s2].records++;
      duplicates.companies++;
      dirty = true;
    }
    if (fire('wrongFieldCount', `empresas:${base}`, 'wrongFieldCount:empresas')) {
      // a base that appears nowhere else, so rejecting it loses nothing
      const rb = bases.forReject();
      emp[es].row(mangle(q, [rb, ...e.slice(1)]));
      rejects.empresas++;
    }

    // Estabelecimentos: head office 0001 plus branches
    const estabs: Establishment[] = [];
    let order = 1;
    for (let b = 0; b <= c.branches; b++) {
      const ord = String(order).padStart(4, '0');
      order += rng.chance(0.9) ? 1 : rng.range(2, 5);
      const est1 = f.establishment(c, ord, b === 0);
      estabs.push(est1);
      const x = est1.fields;
      const id = est1.cnpj;
      if (injectEstablishment(q, x, id)) dirty = true;

      const s = shardPick.pick(rng);
      est[s].row(x);
      est[s].records++;
      if (s < SHARDS - 1 && fire('duplicateEstablishmentKey', id)) {
        // The same key again in a later shard with a newer phone and e-mail: last wins.
        const later = s + 1 + q.rng.int(SHARDS - 1 - s);
        const y2 = x.slice();
        y2[21] = y2[21] || '11';
        y2[22] = `9${q.rng.digits(8)}`;
        y2[27] = `atualizado${q.rng.range(1, 999)}@gmail.com`;
        est[later].row(y2);
        est[later].records++;
        duplicates.establishments++;
        dirty = true;
      }
      if (fire('wrongFieldCount', `estabelecimentos:${id}`, 'wrongFieldCount:estabelecimentos')) {
        // an order the company does not otherwise have
        const badOrder = String(9000 + q.rng.int(1000));
        const y3 = x.slice(0, ESTAB_COLS);
        y3[1] = badOrder;
        y3[2] = makeCnpj(c.base, badOrder).slice(12);
        est[s].row(mangle(q, y3));
        rejects.estabelecimentos++;
      }
    }

    // Sócios (all of a company's partners in one shard)
    const partners = f.partners(c);
    if (partners.length) {
      const s = shardPick.pick(rng);
      for (const p of partners) {
        if (fire('orphanQualificacao36', base)) { p[4] = '36'; dirty = true; }
        soc[s].row(p);
        soc[s].records++;
        if (fire('wrongFieldCount', `socios:${base}`, 'wrongFieldCount:socios')) {
          soc[s].row(mangle(q, p));
          rejects.socios++;
        }
      }
    }

    if (c.simples) {
      simples.row(c.simples);
      simples.records++;
    }
    for (const r of f.regimes(c, estabs)) regimes.write(r);

    if (!dirty && i % sampleStride === Math.floor(sampleStride / 2) && sampleCnpjs.length < 20) sampleCnpjs.push(estabs[0].cnpj);
  }

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

  const expectedRejects = rejects.empresas + rejects.estabelecimentos + rejects.socios;
  const manifest: DumpManifest = {
    month,
    synthetic: true,
    seed,
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
    extractionDate: extractionYmd,
    totalZipBytes: [...zipBytes.values()].reduce((a, b) => a + b, 0),
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}
