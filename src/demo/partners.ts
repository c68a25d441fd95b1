// The Sócios rows of a synthetic company: how many partners each kind has, and who they are
// (people with masked CPFs, legal entities, foreigners, minors with a representative). About a
// third of the people and most legal entities come from the shared pool (shared-partners.ts).

import { makeCnpj } from '../domain/cnpj.ts';
import type { Company } from './company.ts';
import { between, ymd } from './days.ts';
import { brand, maskedCpf, person } from './names.ts';
import { Weighted, type Rng } from './prng.ts';
import type { PartnerPool } from './shared-partners.ts';
import { FOREIGN_CITIES } from './words.ts';

// Partner age bands (0 is for legal entities; 1–2 are minors, who get a representative).
const FAIXA = new Weighted<string>([
  ['1', 0.5],
  ['2', 4],
  ['3', 18],
  ['4', 25],
  ['5', 22],
  ['6', 15],
  ['7', 9],
  ['8', 4],
  ['9', 1.5],
]);

/** The 11-field Sócios rows of `c`; none for MEIs, candidates, rural producers and public bodies. */
export function partnerRows(r: Rng, c: Company, lastDay: number, pool: PartnerPool): string[][] {
  let n: number;
  switch (c.kind) {
    case 'mei':
    case 'candidate':
    case 'rural':
    case 'public':
      return [];
    case 'ltda': {
      const x = r.next();
      n = x < 0.35 ? 0 : x < 0.7 ? 1 : x < 0.95 ? 2 : x < 0.99 ? 3 : r.range(4, 8);
      break;
    }
    case 'eireli':
    case 'other':
      n = r.chance(0.6) ? 1 : 0;
      break;
    case 'sa':
      n = r.range(2, 7);
      break;
    case 'condo':
      n = r.chance(0.5) ? 1 : 0;
      break;
    default:
      n = r.chance(0.5) ? r.range(1, 3) : 0;
  }
  const rows: string[][] = [];
  // Pool members already in this company (holdings as -1 - id): nobody is listed twice.
  const taken: number[] = [];
  for (let i = 0; i < n; i++) rows.push(partner(r, c, i, lastDay, pool, taken));
  return rows;
}

export function partner(r: Rng, c: Company, i: number, lastDay: number, pool: PartnerPool, taken: number[]): string[] {
  const entry = ymd(i === 0 || r.chance(0.6) ? c.startDay : between(r, c.startDay, lastDay));
  const x = r.next();
  if ((c.kind === 'ltda' || c.kind === 'sa') && x < 0.05) {
    if (r.chance(0.7)) {
      const h = pool.holding(r);
      if (!taken.includes(-1 - h.id) && !h.cnpj.startsWith(c.base)) {
        taken.push(-1 - h.id);
        return [c.base, '1', h.name, h.cnpj, '22', entry, '', '***000000**', '', '00', '0'];
      }
    }
    // a legal-entity partner: full unmasked CNPJ, no age band
    const base = r.digits(8);
    return [
      c.base,
      '1',
      `${brand(r)} ${r.pick(['PARTICIPACOES LTDA', 'HOLDING S.A.', 'EMPREENDIMENTOS LTDA'])}`,
      makeCnpj(base, '0001'),
      '22',
      entry,
      '',
      '***000000**',
      '',
      '00',
      '0',
    ];
  }
  if (x < 0.06) {
    const [, pais] = r.pick(FOREIGN_CITIES);
    return [
      c.base,
      '3',
      `${r.pick(['JOHN', 'MARIE', 'HANS', 'GIUSEPPE', 'JUAN', 'KENJI'])} ${r.pick(['SMITH', 'DUBOIS', 'MULLER', 'ROSSI', 'GARCIA', 'TANAKA'])}`,
      '',
      '37',
      entry,
      pais,
      '***' + r.digits(6) + '**',
      person(r),
      '17',
      '0',
    ];
  }
  const qual =
    c.kind === 'sa'
      ? r.pick(['10', '10', '16', '08', '05'])
      : c.kind === 'assoc' || c.kind === 'religious' || c.kind === 'coop'
        ? r.pick(['16', '10', '33', '18', '05'])
        : c.kind === 'condo'
          ? '19'
          : c.kind === 'eireli'
            ? '65'
            : r.chance(0.6)
              ? '49'
              : '22';
  if (r.chance(0.3)) {
    const p = pool.person(r);
    if (!taken.includes(p.id)) {
      taken.push(p.id);
      return [c.base, '2', p.name, p.cpf, qual, entry, '', '***000000**', '', '00', p.faixa];
    }
  }
  const faixa = FAIXA.pick(r);
  // Minors are represented (pai/mãe); otherwise the placeholder `***000000**` and `00`.
  const minor = faixa === '1' || faixa === '2';
  return [
    c.base,
    '2',
    person(r),
    maskedCpf(r),
    minor ? '30' : qual,
    entry,
    '',
    minor ? maskedCpf(r) : '***000000**',
    minor ? person(r) : '',
    minor ? r.pick(['14', '15']) : '00',
    faixa,
  ];
}
