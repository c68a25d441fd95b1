// The tax side of a synthetic company: its Simples/MEI option row and its tax-regime rows
// (the ECF's Lucro Real / Presumido / Arbitrado / Imunes e Isentas files, 2016–2024).

import { formatCnpj, makeCnpj } from '../domain/cnpj.ts';
import type { Company, Establishment } from './company.ts';
import { between, dayOf, yearOf, ymd } from './days.ts';
import type { Rng } from './prng.ts';

/** [year, formatted cnpj, scp, forma, quantidade] */
export type RegimeRow = [number, string, string, string, number];

/** Sets `c.simples` (the 7-field Simples row) and `c.simplesActive`, for the kinds that opt in. */
export function drawSimples(r: Rng, c: Company, lastDay: number): void {
  const p =
    c.kind === 'mei'
      ? 0.74
      : c.kind === 'ltda' || c.kind === 'eireli'
        ? 0.62
        : c.kind === 'other'
          ? 0.3
          : c.kind === 'assoc'
            ? 0.01
            : 0;
  if (!r.chance(p)) return;
  const z = '00000000';
  const opt = between(r, Math.max(c.startDay, dayOf(2007, 7, 1)), lastDay);
  const optDay = ymd(opt);
  const closed = c.situacao === '08' ? ymd(Math.max(opt, c.sitDay)) : null;
  if (c.kind === 'mei' && r.chance(0.8)) {
    if (closed || r.chance(0.15)) {
      const excl = closed ?? ymd(between(r, opt, lastDay));
      c.simples = [c.base, 'N', optDay, excl, 'N', optDay, excl];
    } else {
      c.simples = [c.base, 'S', optDay, z, 'S', optDay, z];
      c.simplesActive = true;
    }
    return;
  }
  if (closed || r.chance(0.2)) {
    c.simples = [c.base, 'N', optDay, closed ?? ymd(between(r, opt, lastDay)), 'N', z, z];
  } else {
    c.simples = [c.base, 'S', optDay, z, 'N', z, z];
    c.simplesActive = true;
  }
}

/** The regime rows of `c`: none while it is in the Simples, and none for some kinds. */
export function regimeRows(
  r: Rng,
  c: Company,
  establishments: readonly Establishment[],
  lastYear: number,
): RegimeRow[] {
  if (c.simplesActive || c.kind === 'candidate' || c.kind === 'condo' || c.kind === 'rural') return [];
  let p: number;
  let forma: string;
  switch (c.kind) {
    case 'sa':
      p = 0.9;
      forma = r.chance(0.7) ? 'LUCRO REAL' : 'LUCRO PRESUMIDO';
      break;
    case 'ltda':
    case 'eireli':
    case 'other':
    case 'coop':
      p = 0.62;
      forma = r.chance(0.82) ? 'LUCRO PRESUMIDO' : r.chance(0.98) ? 'LUCRO REAL' : 'LUCRO ARBITRADO';
      break;
    case 'assoc':
    case 'religious':
      p = 0.35;
      forma = c.kind === 'religious' || r.chance(0.4) ? 'IMUNE DO IRPJ' : 'ISENTA DO IRPJ';
      break;
    case 'public':
      p = 0.2;
      forma = 'IMUNE DO IRPJ';
      break;
    default:
      p = 0.06;
      forma = 'LUCRO PRESUMIDO';
  }
  if (!r.chance(p)) return [];
  const from = Math.max(2016, yearOf(c.startDay));
  const to = Math.min(2024, c.closedYear ?? 2024, lastYear - 1);
  if (from > to) return [];
  const first = r.chance(0.6) ? from : r.range(from, to);
  const last = r.chance(0.7) ? to : r.range(first, to);
  const est = establishments.length > 1 && r.chance(0.05) ? r.pick(establishments) : establishments[0];
  const cnpj = formatCnpj(est.cnpj);
  const rows: RegimeRow[] = [];
  const switchAt = forma === 'LUCRO PRESUMIDO' && r.chance(0.1) ? r.range(first, last) : 9999;
  for (let y = first; y <= last; y++) {
    const f = y >= switchAt ? 'LUCRO REAL' : forma;
    const scp = r.chance(0.005) ? formatCnpj(makeCnpj(r.digits(8), '0001')) : '0';
    rows.push([y, cnpj, scp, f, r.chance(0.03) ? 2 : 1]);
  }
  return rows;
}
