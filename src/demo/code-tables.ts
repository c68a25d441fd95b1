// The six code tables. They come from a fixed internal seed, not the dump seed: the real
// tables barely change between months, and tests can then rely on their sizes and codes.
// Real codes and descriptions are used where they are well known (code-table-data.ts); the rest is
// synthetic.

import { CNAE_QUALIFIERS, DIVISIONS, REAL_CNAES } from './cnae-data.ts';
import {
  FIXED_PAISES,
  MOTIVOS,
  NATUREZAS,
  ORPHAN_PAISES,
  OTHER_COUNTRIES,
  QUALIFICACOES,
  SYLLABLES,
} from './code-table-data.ts';
import { BIG_CITIES, UF_CODE_START, UF_MUNICIPIOS } from './places-data.ts';
import { Rng, Weighted } from './prng.ts';
import { PLACE_HEADS, PLACE_TAILS } from './words.ts';

export interface Row2 {
  code: string;
  desc: string;
}

export interface Municipio extends Row2 {
  uf: string;
}

export interface CodeTables {
  cnaes: Row2[];
  motivos: Row2[];
  municipios: Municipio[];
  naturezas: Row2[];
  paises: Row2[];
  qualificacoes: Row2[];
  /** Weighted choice of a principal CNAE code (a few very common activities, a long tail). */
  cnaePicker: Weighted<string>;
  /** The same weights within each division (first two digits), for related secondary activities. */
  cnaeByDivision: Map<string, Weighted<string>>;
  /** Municipalities by UF, weighted by population (large cities real, the rest long-tailed). */
  municipioPickers: Map<string, Weighted<Municipio>>;
}

const LOOKUP_SEED = 0x5eed_cafe;

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

// Commerce, food and services are by far the most common principal activities.
const COMMON_DIVISIONS = new Set(['47', '56', '96', '43', '82', '49', '45', '85', '86', '94']);

function buildCnaes(rng: Rng): { rows: Row2[]; picker: Weighted<string>; byDivision: Map<string, Weighted<string>> } {
  const rows: Row2[] = REAL_CNAES.map(([code, desc]) => ({ code, desc }));
  const used = new Set(rows.map((r) => r.code));
  const weights: Array<[string, number]> = REAL_CNAES.map(([code, , w]) => [code, w]);
  // Weights of the made-up subclasses come from their own stream (codes do not depend on them).
  const weightRng = new Rng(LOOKUP_SEED, 97);
  const tail: Array<[string, number]> = [];
  const target = 1350;
  const divisions = Object.keys(DIVISIONS);
  const perDivision = Math.ceil((target - rows.length) / divisions.length);
  for (const div of divisions) {
    const [verb, objects] = DIVISIONS[div];
    let made = 0;
    for (let k = 0; made < perDivision && k < perDivision * 4; k++) {
      const object = objects[k % objects.length];
      const qualifier = k < objects.length ? '' : rng.pick(CNAE_QUALIFIERS);
      // group and class digits, a class check digit, then the subclass
      const sub =
        k < objects.length
          ? rng.chance(0.6)
            ? '00'
            : pad(rng.range(1, 5), 2)
          : rng.chance(0.15)
            ? '99'
            : pad(rng.range(1, 9), 2);
      const code = `${div}${rng.range(1, 9)}${rng.int(10)}${rng.int(10)}${sub}`;
      if (used.has(code)) continue;
      used.add(code);
      rows.push({ code, desc: `${verb} ${object}${qualifier}` });
      // A long tail: weights spread log-uniformly over three decades, higher in common divisions.
      tail.push([code, (COMMON_DIVISIONS.has(div) ? 8 : 1) * 10 ** (-3 * weightRng.next())]);
      made++;
      if (rows.length >= target) break;
    }
    if (rows.length >= target) break;
  }
  // The real (common) subclasses keep ~60% of the draws, the made-up tail the rest.
  const realTotal = weights.reduce((s, [, w]) => s + w, 0);
  const tailTotal = tail.reduce((s, [, w]) => s + w, 0);
  for (const [code, w] of tail) weights.push([code, (w * 0.65 * realTotal) / tailTotal]);
  const ofDivision = new Map<string, Array<[string, number]>>();
  for (const [code, w] of weights) {
    const list = ofDivision.get(code.slice(0, 2)) ?? [];
    list.push([code, w]);
    ofDivision.set(code.slice(0, 2), list);
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const byDivision = new Map([...ofDivision].map(([div, list]) => [div, new Weighted(list)] as const));
  return { rows, picker: new Weighted(weights), byDivision };
}

function buildMunicipios(rng: Rng): { rows: Municipio[]; pickers: Map<string, Weighted<Municipio>> } {
  const rows: Municipio[] = [];
  // Every real code is reserved up front: a UF whose block overflows must not take a later UF's.
  const usedCodes = new Set<string>(BIG_CITIES.map((c) => c[0]));
  const usedNames = new Set<string>(BIG_CITIES.map((c) => c[1]));
  const pickers = new Map<string, Weighted<Municipio>>();
  // City sizes come from their own stream, so the names and codes do not depend on them.
  const sizeRng = new Rng(LOOKUP_SEED, 98);
  // Codes are handed out in SIAFI block order, each UF starting at its block when there is
  // room; steps of 1–2 keep all 5,5xx codes within four digits.
  const order = [...UF_MUNICIPIOS].sort((a, b) => UF_CODE_START[a[0]] - UF_CODE_START[b[0]]);
  let remaining = order.reduce((s, u) => s + u[1], 0);
  let code = 1;
  for (const [uf, count, population] of order) {
    const mine: Array<[Municipio, number]> = [];
    let bigPopulation = 0;
    for (const [bigCode, name, cuf, pop] of BIG_CITIES) {
      if (cuf !== uf) continue;
      const m = { code: bigCode, desc: name, uf };
      rows.push(m);
      mine.push([m, pop]);
      bigPopulation += pop;
    }
    remaining -= mine.length;
    const start = UF_CODE_START[uf];
    if (start > code && 9990 - start > remaining * 1.6) code = start;
    const made: Municipio[] = [];
    while (mine.length + made.length < count) {
      while (usedCodes.has(pad(code, 4)) || code === 9707) code++;
      let name = '';
      for (let tries = 0; tries < 50; tries++) {
        // Tupi-like syllables glue together (ITAPIRANA); everything else is spaced (NOVA ALEGRE).
        const head = rng.pick(PLACE_HEADS);
        const tail = rng.pick(PLACE_TAILS);
        name = SYLLABLES.has(head) && SYLLABLES.has(tail) ? head + tail : `${head} ${tail}`;
        if (!usedNames.has(name)) break;
        name = `${name} ${rng.pick(['I', 'II', 'DE MINAS', 'PAULISTA', 'DO ' + uf])}`;
        if (!usedNames.has(name)) break;
      }
      usedNames.add(name);
      const m = { code: pad(code, 4), desc: name, uf };
      usedCodes.add(m.code);
      rows.push(m);
      made.push(m);
      remaining--;
      code += rng.chance(0.6) ? 2 : 1;
    }
    if (code > 9999) throw new Error('municipality codes overflowed four digits');
    // City sizes follow Zipf's law: the made-up towns share what the listed cities leave of the
    // UF's population, the r-th largest city of the UF getting a share ∝ 1/r.
    for (let i = made.length - 1; i > 0; i--) {
      const j = sizeRng.int(i + 1);
      [made[i], made[j]] = [made[j], made[i]];
    }
    const first = mine.length + 1;
    let harmonic = 0;
    for (let k = 0; k < made.length; k++) harmonic += 1 / (first + k);
    const rest = Math.max(population - bigPopulation, population * 0.05);
    made.forEach((m, k) => mine.push([m, rest / (harmonic * (first + k))]));
    pickers.set(uf, new Weighted(mine));
  }
  const exterior = { code: '9707', desc: 'EXTERIOR', uf: 'EX' };
  rows.push(exterior);
  pickers.set('EX', new Weighted([[exterior, 1]]));
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return { rows, pickers };
}

function buildPaises(): Row2[] {
  const rows: Row2[] = FIXED_PAISES.map(([code, desc]) => ({ code, desc }));
  const used = new Set([...rows.map((r) => r.code), ...ORPHAN_PAISES]);
  let next = 5;
  for (const desc of OTHER_COUNTRIES) {
    if (rows.length >= 255) break;
    while (used.has(pad(next, 3))) next++;
    used.add(pad(next, 3));
    rows.push({ code: pad(next, 3), desc });
    next += 3;
  }
  rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  return rows;
}

let cached: CodeTables | null = null;

export function buildCodeTables(): CodeTables {
  if (cached) return cached;
  const rng = new Rng(LOOKUP_SEED, 99);
  const { rows: cnaes, picker, byDivision } = buildCnaes(rng);
  const { rows: municipios, pickers } = buildMunicipios(rng);
  const toRows = (t: ReadonlyArray<readonly [string, string]>) => t.map(([code, desc]) => ({ code, desc }));
  cached = {
    cnaes,
    motivos: toRows(MOTIVOS),
    municipios,
    naturezas: toRows(NATUREZAS),
    paises: buildPaises(),
    qualificacoes: toRows(QUALIFICACOES),
    cnaePicker: picker,
    cnaeByDivision: byDivision,
    municipioPickers: pickers,
  };
  for (const table of [
    cached.cnaes,
    cached.motivos,
    cached.municipios,
    cached.naturezas,
    cached.paises,
    cached.qualificacoes,
  ]) {
    for (const r of table) {
      // Latin-1 output: a character above U+00FF would be silently mangled.
      if (/[^\x00-\xff]/.test(r.desc)) throw new Error(`non-Latin-1 description for ${r.code}: ${r.desc}`);
    }
  }
  return cached;
}
