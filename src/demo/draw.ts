// One synthetic company drawn whole, with the rows it will be written as and the shards they go
// to, before anything is written: the next-month mode (evolve.ts) changes these records between
// drawing and writing. Draw order is the generator's (the PRNG streams depend on it), and rows
// keep their write order, so a dump drawn and written this way is byte-identical to one written
// row by row.

import { makeCnpj } from '../domain/cnpj.ts';
import type { Bases } from './bases.ts';
import type { Company, Establishment } from './company.ts';
import type { CsvZip, RegimeFiles } from './dump-files.ts';
import { injectEmpresa, injectEstablishment, mangle } from './inject.ts';
import type { Rng, Weighted } from './prng.ts';
import type { Quirks } from './quirks.ts';
import type { RowFactory } from './rows.ts';
import type { RegimeRow } from './tax.ts';

export const SHARDS = 10;
const ESTAB_COLS = 30;

/** A row and the shard it is written to; `reject` rows have a wrong field count and are not counted. */
export interface Placed {
  shard: number;
  row: string[];
  reject?: boolean;
}

export interface EstabRecord {
  cnpj: string;
  /** rows[0] is the establishment itself; then a later duplicate and a reject, if injected. */
  rows: Placed[];
}

export interface CompanyRecords {
  c: Company;
  /** No quirk touched this company: its rows are as drawn (only these are ever evolved). */
  clean: boolean;
  /** empresa[0] is the company's row; then a duplicate and a reject, if injected. */
  empresa: Placed[];
  estabs: EstabRecord[];
  socios: Placed[];
  simples: string[] | null;
  regimes: RegimeRow[];
}

export interface DrawCounters {
  rejects: { empresas: number; estabelecimentos: number; socios: number };
  duplicates: { establishments: number; companies: number };
}

export class Drawer {
  constructor(
    readonly rng: Rng,
    readonly q: Quirks,
    readonly f: RowFactory,
    readonly bases: Bases,
    readonly shardPick: Weighted<number>,
    readonly counters: DrawCounters,
    /** Chance of an alphanumeric base (only where the month allows them). */
    readonly alnumRate = 0.0003,
    /** Day from which new companies open (next-month openings); undefined: any time. */
    readonly openedFrom?: number,
  ) {}

  draw(i: number): CompanyRecords {
    const { rng, q, f, bases, shardPick } = this;
    const { rejects, duplicates } = this.counters;
    const fire = q.fire.bind(q);
    q.at(i);
    const alnum = f.alnumPossible && rng.chance(this.alnumRate);
    const base = alnum ? bases.nextAlnum(rng) : bases.nextNumeric();
    const c: Company = f.company(i, base, alnum, alnum ? null : f.pool.holdingAt(bases.lastIndex), this.openedFrom);
    const e = f.empresaFields(c);
    let dirty = injectEmpresa(q, e, c);
    const es = shardPick.pick(rng);
    const empresa: Placed[] = [{ shard: es, row: e }];
    if (fire('duplicateCompanyRow', base)) {
      empresa.push({ shard: q.rng.int(SHARDS), row: e });
      duplicates.companies++;
      dirty = true;
    }
    if (fire('wrongFieldCount', `empresas:${base}`, 'wrongFieldCount:empresas')) {
      // a base that appears nowhere else, so rejecting it loses nothing
      const rb = bases.forReject();
      empresa.push({ shard: es, row: mangle(q, [rb, ...e.slice(1)]), reject: true });
      rejects.empresas++;
    }

    // Estabelecimentos: head office 0001 plus branches
    const estabs: EstabRecord[] = [];
    const drawn: Establishment[] = [];
    let order = 1;
    for (let b = 0; b <= c.branches; b++) {
      const ord = String(order).padStart(4, '0');
      order += rng.chance(0.9) ? 1 : rng.range(2, 5);
      const est1 = f.establishment(c, ord, b === 0);
      drawn.push(est1);
      const x = est1.fields;
      const id = est1.cnpj;
      if (injectEstablishment(q, x, id)) dirty = true;
      const s = shardPick.pick(rng);
      const rows: Placed[] = [{ shard: s, row: x }];
      if (s < SHARDS - 1 && fire('duplicateEstablishmentKey', id)) {
        // The same key again in a later shard with a newer phone and e-mail: last wins.
        const later = s + 1 + q.rng.int(SHARDS - 1 - s);
        const y2 = x.slice();
        y2[21] = y2[21] || '11';
        y2[22] = `9${q.rng.digits(8)}`;
        y2[27] = `atualizado${q.rng.range(1, 999)}@gmail.com`;
        rows.push({ shard: later, row: y2 });
        duplicates.establishments++;
        dirty = true;
      }
      if (fire('wrongFieldCount', `estabelecimentos:${id}`, 'wrongFieldCount:estabelecimentos')) {
        // an order the company does not otherwise have
        const badOrder = String(9000 + q.rng.int(1000));
        const y3 = x.slice(0, ESTAB_COLS);
        y3[1] = badOrder;
        y3[2] = makeCnpj(c.base, badOrder).slice(12);
        rows.push({ shard: s, row: mangle(q, y3), reject: true });
        rejects.estabelecimentos++;
      }
      estabs.push({ cnpj: id, rows });
    }

    // Sócios (all of a company's partners in one shard)
    const socios: Placed[] = [];
    const partners = f.partners(c);
    if (partners.length) {
      const s = shardPick.pick(rng);
      for (const p of partners) {
        if (fire('orphanQualificacao36', base)) {
          p[4] = '36';
          dirty = true;
        }
        socios.push({ shard: s, row: p });
        if (fire('wrongFieldCount', `socios:${base}`, 'wrongFieldCount:socios')) {
          socios.push({ shard: s, row: mangle(q, p), reject: true });
          rejects.socios++;
        }
      }
    }
    const regimes = f.regimes(c, drawn);
    return { c, clean: !dirty, empresa, estabs, socios, simples: c.simples, regimes };
  }
}

export interface Sinks {
  emp: CsvZip[];
  est: CsvZip[];
  soc: CsvZip[];
  simples: CsvZip;
  regimes: RegimeFiles;
}

/** Writes a company's rows, each family in its drawn order; rejects are written but not counted. */
export function writeCompany(k: Sinks, rec: CompanyRecords): void {
  const put = (zips: CsvZip[], p: Placed) => {
    zips[p.shard].row(p.row);
    if (!p.reject) zips[p.shard].records++;
  };
  for (const p of rec.empresa) put(k.emp, p);
  for (const e of rec.estabs) for (const p of e.rows) put(k.est, p);
  for (const p of rec.socios) put(k.soc, p);
  if (rec.simples) {
    k.simples.row(rec.simples);
    k.simples.records++;
  }
  for (const r of rec.regimes) k.regimes.write(r);
}
