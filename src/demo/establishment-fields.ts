// The drawn fields of an establishment beyond its company's: trade name, secondary CNAEs,
// address details, phones and e-mail.

import type { Company } from './company.ts';
import type { CodeTables } from './code-tables.ts';
import { Weighted, type Rng } from './prng.ts';
import { accentize, brandWord } from './vocab.ts';
import { COMPLEMENTS, EMAIL_DOMAINS, EMAIL_ROLES, FANTASY_TAILS, FIRST_NAMES, SURNAMES } from './words.ts';

const CEP_RANGES: Record<string, readonly [number, number]> = {
  SP: [1000, 19999],
  RJ: [20000, 28999],
  ES: [29000, 29999],
  MG: [30000, 39999],
  BA: [40000, 48999],
  SE: [49000, 49999],
  PE: [50000, 56999],
  AL: [57000, 57999],
  PB: [58000, 58999],
  RN: [59000, 59999],
  CE: [60000, 63999],
  PI: [64000, 64999],
  MA: [65000, 65999],
  PA: [66000, 68899],
  AP: [68900, 68999],
  AM: [69000, 69299],
  RR: [69300, 69399],
  AC: [69900, 69999],
  DF: [70000, 72799],
  GO: [72800, 76799],
  RO: [76800, 76999],
  TO: [77000, 77999],
  MT: [78000, 78899],
  MS: [79000, 79999],
  PR: [80000, 87999],
  SC: [88000, 89999],
  RS: [90000, 99999],
};

const DDDS: Record<string, readonly string[]> = {
  SP: ['11', '11', '11', '12', '13', '14', '15', '16', '17', '18', '19'],
  RJ: ['21', '21', '22', '24'],
  ES: ['27', '28'],
  MG: ['31', '31', '32', '33', '34', '35', '37', '38'],
  PR: ['41', '42', '43', '44', '45', '46'],
  SC: ['47', '48', '49'],
  RS: ['51', '51', '53', '54', '55'],
  DF: ['61'],
  GO: ['62', '64'],
  TO: ['63'],
  MT: ['65', '66'],
  MS: ['67'],
  AC: ['68'],
  RO: ['69'],
  BA: ['71', '73', '74', '75', '77'],
  SE: ['79'],
  PE: ['81', '87'],
  AL: ['82'],
  PB: ['83'],
  RN: ['84'],
  CE: ['85', '88'],
  PI: ['86', '89'],
  PA: ['91', '93', '94'],
  AM: ['92', '97'],
  RR: ['95'],
  AP: ['96'],
  MA: ['98', '99'],
};

const EMAIL_DOMAIN_PICKER = new Weighted(EMAIL_DOMAINS);

const TAIL = Weighted.ranked(FANTASY_TAILS, 2);

/** The nome fantasia: more than half have none (public bodies and candidates never); ~6% accented. */
export function fantasia(r: Rng, c: Company): string {
  if (r.chance(0.52) || c.kind === 'public' || c.kind === 'candidate') return '';
  let s: string;
  switch (r.int(5)) {
    case 0:
      s = `${brandWord(r)} ${TAIL.pick(r)}`;
      break;
    case 1:
      s = `${r.pick(FIRST_NAMES)} ${TAIL.pick(r)}`;
      break;
    case 2:
      s = `${TAIL.pick(r)} ${brandWord(r)}`;
      break;
    case 3:
      s = brandWord(r);
      break;
    default:
      s = `${brandWord(r)} ${brandWord(r)}`;
  }
  return r.chance(0.06) ? accentize(s) : s;
}

/**
 * Comma-separated secondary CNAE codes, other than the principal one: 1 to 20, most often 1–3,
 * half of them from the principal's division (a clothing shop also sells shoes).
 */
export function secondaryCnaes(r: Rng, lk: CodeTables, principal: string): string {
  const n = 1 + Math.min(19, Math.floor(-Math.log(1 - r.next()) * 1.8));
  const near = lk.cnaeByDivision.get(principal.slice(0, 2));
  const codes = new Set<string>();
  for (let i = 0; i < n * 2 && codes.size < n; i++) {
    const c = near && r.chance(0.5) ? near.pick(r) : lk.cnaePicker.pick(r);
    if (c !== principal) codes.add(c);
  }
  return [...codes].join(',');
}

export function complemento(r: Rng): string {
  const a = r.pick(COMPLEMENTS);
  if (a === 'TERREO' || a === 'FUNDOS' || a === 'CASA') return r.chance(0.5) ? a : `${a} ${r.range(1, 9)}`;
  let s = `${a} ${r.chance(0.3) ? String(r.range(1, 20)).padStart(2, '0') : r.range(1, 1500)}`;
  if (r.chance(0.25))
    s += ` ${r.pick(['BLOCO', 'QUADRA', 'LOTE', 'ANDAR'])} ${r.chance(0.5) ? String.fromCharCode(65 + r.int(8)) : r.range(1, 30)}`;
  return s;
}

/** A CEP in the UF's range. */
export function cep(r: Rng, uf: string): string {
  const [lo, hi] = CEP_RANGES[uf] ?? [1000, 99999];
  return String(r.range(lo, hi)).padStart(5, '0') + (r.chance(0.4) ? '000' : r.digits(3));
}

/** [DDD, number] of the UF: mostly mobiles. */
export function phone(r: Rng, uf: string): [string, string] {
  const ddd = r.pick(DDDS[uf] ?? ['11']);
  const mobile = r.chance(0.6);
  return [ddd, mobile ? `9${r.range(6, 9)}${r.digits(7)}` : `${r.range(2, 5)}${r.digits(7)}`];
}

export function email(r: Rng, c: Company): string {
  // accented letters become plain ones (COMÉRCIO → comercio), everything else not a–z goes
  const word = (s: string) => (/[^\x00-\x7f]/.test(s) ? s.normalize('NFD') : s).toLowerCase().replace(/[^a-z]+/g, '');
  const who = r.pick(FIRST_NAMES);
  let local: string;
  let domain: string;
  if (r.chance(0.3) && c.kind !== 'mei') {
    local = r.pick(EMAIL_ROLES);
    domain = `${word(c.razao.split(' ').slice(0, 2).join('')).slice(0, 18) || 'empresa'}.com.br`;
  } else {
    local = `${word(who)}${r.chance(0.5) ? '.' + word(r.pick(SURNAMES)) : ''}${r.chance(0.5) ? r.range(1, 99) : ''}`;
    domain = EMAIL_DOMAIN_PICKER.pick(r);
  }
  const e = `${local}@${domain}`;
  // Mixed case, as typed by whoever filled the form.
  const style = r.next();
  if (style < 0.3) return e.toUpperCase();
  if (style < 0.4) return e.charAt(0).toUpperCase() + e.slice(1);
  return e;
}
