// The next-month mode of the synthetic generator (`make-sample-dump --evolve-from DIR`): a
// plausible following month of the dump in DIR. Design (docs/receita-dump.md §9):
// - The generator is deterministic, so DIR's records are not read back from its zips: they are
//   drawn again from its manifest (seed, companies, quirk rate, month), company by company, with
//   memory flat and about the time of a plain generation, even at 60 M companies.
// - Each month after the base is a step with its own seed and PRNG streams, separate from the
//   base's: it changes the drawn records of each company in passing (evolve-changes.ts) and,
//   after the last company, appends its openings. A chain (evolving an evolved month) replays
//   every step in order, so month 3 = base → step 1 → step 2, and the records a step leaves
//   alone are byte-identical to the month before.
// - Only companies no quirk touched are changed: the quirks, duplicates and rejects of the base
//   stay exactly where they were, so the new month's manifest can carry them over unchanged.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addMonths, parseMonth } from '../lib/month.ts';
import type { Bases } from './bases.ts';
import { dayOf } from './days.ts';
import { Drawer, type CompanyRecords } from './draw.ts';
import { CHANGE_KINDS, type ChangeCtx } from './evolve-changes.ts';
import type { CodeTables } from './code-tables.ts';
import type { ChangeSummary, DumpManifest } from './manifest.ts';
import { Rng, type Weighted } from './prng.ts';
import { Quirks } from './quirks.ts';
import { RowFactory } from './rows.ts';
import type { PartnerPool } from './shared-partners.ts';

/** New companies a month, as a share of the dump (~4.1 M a year over ~60 M bases, Mapa de Empresas 2024). */
export const OPENING_RATE = 0.0055;
/** Alphanumeric bases among the openings, from July 2026 on (IN RFB 2.229/2024). */
const ALNUM_OPENINGS = 0.05;
const EXAMPLES = 5;
// The extraction day of every synthetic month (see generate.ts).
export const EXTRACTION_DAY = 13;

export interface StepSpec {
  month: string;
  seed: number;
}

export interface BaseSpec {
  month: string;
  seed: number;
  companies: number;
  quirkRate: number;
}

export interface EvolutionPlan {
  base: BaseSpec;
  /** Every month after the base, oldest first; the last is the month being written. */
  steps: StepSpec[];
  /** The manifest of the month evolved from. */
  from: DumpManifest;
}

export function nextMonth(month: string): string {
  return addMonths(month, 1);
}

export function extractionDayOf(month: string): number {
  const { year, month: m } = parseMonth(month)!;
  return dayOf(year, m, EXTRACTION_DAY);
}

/** The chain to replay for the month after DIR's; `seed` is the new month's (default: from DIR's seed and the month). */
export function planEvolution(dir: string, seed?: number): EvolutionPlan {
  const from = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as DumpManifest;
  if (!from.synthetic) throw new Error(`${dir} is not a synthetic dump`);
  // Dumps made before the manifest named its companies and quirk rate: 3 fixed companies, and a
  // quirk rate of 1 unless no quirk was injected (checked against the replay in generate.ts).
  const quirked = Object.values(from.quirks).some((n) => n > 0);
  const base: BaseSpec = from.evolution?.base ?? {
    month: from.month,
    seed: from.seed,
    companies: from.companies ?? from.expectedRows.empresas - 3,
    quirkRate: from.quirkRate ?? (quirked ? 1 : 0),
  };
  const month = nextMonth(from.month);
  const stepSeed = (seed ?? Math.imul(from.seed ^ 0x2545f491, 0x9e3779b1) + Number(month.replace('-', ''))) >>> 0;
  return { base, steps: [...(from.evolution?.steps ?? []), { month, seed: stepSeed }], from };
}

export interface StepEnv {
  lk: CodeTables;
  pool: PartnerPool;
  bases: Bases;
  shardPick: Weighted<number>;
  /** Companies of the base month (sets the number of openings and where kinds are forced). */
  companies: number;
}

/** One month's changes: `apply` to every company of the month before, then `openings()`. */
export class EvolveStep {
  readonly changes: Record<string, ChangeSummary> = {};
  private readonly ctx: ChangeCtx;
  private readonly kinds = Object.entries(CHANGE_KINDS);
  private readonly cum: number[] = [];
  private readonly forcedAt = new Map<string, number>();
  private seen = 0;

  constructor(
    readonly spec: StepSpec,
    private readonly env: StepEnv,
    prevMonth: string,
  ) {
    const rng = new Rng(spec.seed, 11);
    this.ctx = {
      r: rng,
      lk: env.lk,
      pool: env.pool,
      from: extractionDayOf(prevMonth),
      to: extractionDayOf(spec.month) - 1,
    };
    let t = 0;
    for (const [name, k] of this.kinds) {
      this.cum.push((t += k.rate));
      this.changes[name] = { count: 0, unit: k.unit, campos: k.campos, examples: [] };
      // Realistic rates give few hits in a small dump, so each kind is also forced once, at the
      // first eligible company past a seeded point in the first 80% (as the quirks are).
      this.forcedAt.set(name, Math.floor(rng.next() * env.companies * 0.8));
    }
    this.changes.abertura = { count: 0, unit: 'estabelecimento', campos: [], examples: [], companies: 0 };
  }

  /** Changes `rec` in place (at most one change per company and month); quirky companies are left alone. */
  apply(rec: CompanyRecords): void {
    const pos = this.seen++;
    if (!rec.clean) return;
    const u = this.ctx.r.next();
    for (const [name, at] of this.forcedAt) {
      if (pos < at) continue;
      const hit = CHANGE_KINDS[name].apply(this.ctx, rec);
      if (!hit) continue;
      this.forcedAt.delete(name);
      this.note(name, hit);
      return;
    }
    if (u >= this.cum[this.cum.length - 1]) return;
    let i = 0;
    while (this.cum[i] <= u) i++;
    const [name, kind] = this.kinds[i];
    const hit = kind.apply(this.ctx, rec);
    if (hit) this.note(name, hit);
  }

  private note(name: string, cnpjs: string[]): void {
    this.forcedAt.delete(name);
    const s = this.changes[name];
    s.count += cnpjs.length;
    if (s.examples.length < EXAMPLES && cnpjs.length) s.examples.push(cnpjs[0]);
  }

  /** The month's new companies, active since a day of the month, with their establishments. */
  *openings(): Generator<CompanyRecords> {
    const { lk, pool, bases, shardPick, companies } = this.env;
    const rng = new Rng(this.spec.seed, 12);
    const f = new RowFactory(rng, lk, this.ctx.to + 1, pool);
    const counters = {
      rejects: { empresas: 0, estabelecimentos: 0, socios: 0 },
      duplicates: { establishments: 0, companies: 0 },
    };
    const d = new Drawer(
      rng,
      new Quirks(this.spec.seed, 0, 1),
      f,
      bases,
      shardPick,
      counters,
      ALNUM_OPENINGS,
      this.ctx.from,
    );
    const n = Math.max(1, Math.round(companies * OPENING_RATE));
    const s = this.changes.abertura;
    for (let k = 0; k < n; k++) {
      const rec = d.draw(companies + k);
      s.count += rec.estabs.length;
      s.companies!++;
      if (s.examples.length < EXAMPLES) s.examples.push(rec.estabs[0].cnpj);
      yield rec;
    }
  }
}
