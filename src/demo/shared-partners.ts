// Partners who are in several companies, so "every company of this partner" means something:
// people (same name and masked CPF everywhere) and holding companies (same name and CNPJ). Each
// is a pool index drawn with a Zipf-like frequency, and everything about it is a fixed function of
// the seed and the index: no state grows with the dump. Most pool members land in one company or
// none, some in 2–10, a few in 100+ (people up to ~170, holdings up to a few thousand at 60 M).
// A holding is itself a company of the dump: the base at a fixed index of the base sequence.

import { makeCnpj } from '../domain/cnpj.ts';
import { brand, maskedCpf, person } from './names.ts';
import { Rng, Weighted, ZipfIndex } from './prng.ts';

export interface SharedPerson {
  id: number;
  name: string;
  cpf: string;
  faixa: string;
}

export interface Holding {
  id: number;
  name: string;
  cnpj: string;
}

// Age bands of adults (a shared partner is never a minor).
const ADULT = new Weighted<string>([
  ['3', 18],
  ['4', 25],
  ['5', 22],
  ['6', 15],
  ['7', 9],
  ['8', 4],
  ['9', 1.5],
]);
const HOLDING_TAILS = [
  'PARTICIPACOES LTDA',
  'HOLDING LTDA',
  'EMPREENDIMENTOS E PARTICIPACOES LTDA',
  'INVESTIMENTOS LTDA',
  'ADMINISTRACAO DE BENS LTDA',
];

export class PartnerPool {
  private readonly people: ZipfIndex;
  private readonly holdings: ZipfIndex;
  private readonly stride: number;

  /**
   * `numericBase(i)`: the i-th base of the dump's numeric sequence, or null when that base is
   * reserved for a fixed record (the holding then gets a base outside the dump).
   */
  constructor(
    private readonly seed: number,
    companies: number,
    private readonly numericBase: (i: number) => string | null,
  ) {
    // Pool sizes and heads scale with the dump, so the shape is the same at 20 k and 60 M.
    const people = Math.max(1000, Math.round(companies * 0.1));
    this.people = new ZipfIndex(people, Math.max(1, people / 1000));
    const holdings = Math.max(20, Math.round(companies * 0.0005));
    this.holdings = new ZipfIndex(holdings, Math.max(1, holdings / 1000));
    // Holding j is the company at numeric index j·stride + stride/2, all within the first 90%.
    this.stride = Math.max(1, Math.floor((companies * 0.9) / holdings));
  }

  /** A shared person, drawn by frequency. */
  person(r: Rng): SharedPerson {
    const id = this.people.pick(r);
    const g = new Rng((this.seed ^ 0x50c105) >>> 0, id);
    return { id, name: person(g), cpf: maskedCpf(g), faixa: ADULT.pick(g) };
  }

  /** A holding company partner, drawn by frequency. */
  holding(r: Rng): Holding {
    return this.holdingById(this.holdings.pick(r));
  }

  /** The holding that the company at numeric index `i` is, or null. */
  holdingAt(i: number): Holding | null {
    const half = this.stride >> 1;
    if (i % this.stride !== half) return null;
    const id = (i - half) / this.stride;
    return id < this.holdings.n ? this.holdingById(id) : null;
  }

  private holdingById(id: number): Holding {
    const g = new Rng((this.seed ^ 0x401d1) >>> 0, id);
    const name = `${brand(g)} ${g.pick(HOLDING_TAILS)}`;
    const base = this.numericBase(id * this.stride + (this.stride >> 1)) ?? g.digits(8);
    return { id, name, cnpj: makeCnpj(base, '0001') };
  }
}
