// The kinds of synthetic company and what each looks like: its natureza jurídica (and how often
// it occurs), capital, porte, principal CNAE and number of branches.

import type { CodeTables } from './code-tables.ts';
import type { Rng } from './prng.ts';

export type Kind =
  | 'mei'
  | 'ltda'
  | 'eireli'
  | 'sa'
  | 'assoc'
  | 'religious'
  | 'candidate'
  | 'condo'
  | 'coop'
  | 'public'
  | 'rural'
  | 'other';

// natureza, weight (%), kind, qualificação of the responsible person
export const NATUREZA_MIX: ReadonlyArray<readonly [string, number, Kind, string]> = [
  ['2135', 50, 'mei', '50'],
  ['2062', 27, 'ltda', '49'],
  ['2305', 3, 'eireli', '65'],
  ['2240', 1.5, 'ltda', '49'],
  ['2232', 0.3, 'ltda', '49'],
  ['2054', 0.6, 'sa', '10'],
  ['2046', 0.02, 'sa', '16'],
  ['3999', 4, 'assoc', '16'],
  ['3220', 1.5, 'religious', '16'],
  ['4090', 3, 'candidate', '51'],
  ['3085', 1.5, 'condo', '19'],
  ['2143', 0.3, 'coop', '16'],
  ['4120', 0.5, 'rural', '59'],
  ['1031', 0.2, 'public', '05'],
  ['1333', 0.15, 'public', '05'],
  ['1120', 0.04, 'public', '05'],
  ['1244', 0.01, 'public', '05'],
  ['2011', 0.01, 'sa', '16'],
  ['2038', 0.02, 'sa', '10'],
  ['3069', 0.1, 'assoc', '16'],
  ['3131', 0.2, 'assoc', '16'],
  ['2321', 0.3, 'other', '65'],
  ['3271', 0.3, 'assoc', '16'],
  ['2330', 0.02, 'coop', '16'],
  ['2348', 0.02, 'ltda', '49'],
  ['2178', 0.03, 'other', '17'],
  ['0000', 0.005, 'other', '00'],
];

export function capital(r: Rng, kind: Kind): string {
  let v: number;
  switch (kind) {
    case 'mei':
    case 'rural':
      v = r.chance(0.3) ? 0 : r.pick([1000, 2000, 5000, 10000, 15000, 20000, 30000, 50000]);
      break;
    case 'ltda':
    case 'eireli':
      v = r.chance(0.7)
        ? r.pick([10000, 20000, 30000, 50000, 80000, 100000, 150000, 200000, 500000])
        : r.range(1, 2_000_000);
      break;
    case 'sa':
      v = r.range(100_000, 900_000_000);
      break;
    case 'assoc':
    case 'religious':
    case 'candidate':
    case 'condo':
    case 'public':
      v = 0;
      break;
    default:
      v = r.pick([0, 1000, 10000, 100000]);
  }
  const cents = v > 0 && r.chance(0.05) ? r.range(1, 99) : 0;
  return `${v},${cents < 10 ? '0' : ''}${cents}`;
}

export function porte(r: Rng, kind: Kind): string {
  if (r.chance(0.0001)) return r.pick(['00', '']);
  switch (kind) {
    case 'mei':
    case 'candidate':
    case 'rural':
      return '01';
    case 'ltda':
    case 'eireli':
      return r.chance(0.6) ? '01' : r.chance(0.3) ? '03' : '05';
    default:
      return '05';
  }
}

export function principalCnae(r: Rng, lk: CodeTables, kind: Kind): string {
  switch (kind) {
    case 'candidate':
      return '9492800';
    case 'religious':
      return '9491000';
    case 'assoc':
      return r.pick(['9430800', '9499500', '9499500']);
    case 'condo':
      return '8112500';
    case 'public':
      return '8411600';
    case 'rural':
      return r.pick(['0151201', '0111301']);
    default:
      return lk.cnaePicker.pick(r);
  }
}

export function branchCount(r: Rng, kind: Kind): number {
  if (kind === 'candidate' || kind === 'condo' || kind === 'rural') return 0;
  const x = r.next();
  const big = kind === 'sa' || kind === 'public' || kind === 'coop' ? 8 : 1;
  if (x < 0.022 * big) return 1;
  if (x < 0.027 * big) return r.range(2, 4);
  if (x < 0.0276 * big) return r.range(5, 25);
  return 0;
}
