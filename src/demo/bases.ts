// The 8-character CNPJ bases of a synthetic dump: numeric ones from a seeded permutation (so
// they never repeat), alphanumeric ones drawn at random, and the bases of rejected rows.

import type { Rng } from './prng.ts';

// Multiplier coprime with 10^8: i → (i·A + B) mod 10^8 is a bijection, so bases never repeat.
const BASE_MULTIPLIER = 48_271_203;
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export class Bases {
  private readonly offset: number;
  private counter = 0;
  // Rejected Empresas rows take bases from the far end of the permutation, so the main
  // sequence (and every clean record) is the same whatever the quirk rate.
  private rejectCounter = 99_999_999;
  private readonly alnum = new Set<string>();

  /** `reserved`: the bases of the fixed real records, never handed out. */
  constructor(
    seed: number,
    private readonly reserved: ReadonlySet<string>,
  ) {
    this.offset = (Math.imul(seed, 0x9e3779b1) >>> 0) % 100_000_000;
  }

  private at(i: number): string {
    return String((i * BASE_MULTIPLIER + this.offset) % 100_000_000).padStart(8, '0');
  }

  nextNumeric(): string {
    for (;;) {
      const b = this.at(this.counter++);
      if (!this.reserved.has(b)) return b;
    }
  }

  /** The index in the numeric sequence of the base nextNumeric() returned last. */
  get lastIndex(): number {
    return this.counter - 1;
  }

  /** The base at index `i` of the numeric sequence; null if it is reserved (never handed out). */
  numericAt(i: number): string | null {
    const b = this.at(i);
    return this.reserved.has(b) ? null : b;
  }

  /** A base that appears nowhere else in the dump, for a row that is to be rejected. */
  forReject(): string {
    for (;;) {
      const b = this.at(this.rejectCounter--);
      if (!this.reserved.has(b)) return b;
    }
  }

  nextAlnum(rng: Rng): string {
    for (;;) {
      let b = '';
      for (let k = 0; k < 8; k++) b += ALNUM[rng.int(36)];
      if (/[A-Z]/.test(b) && !this.alnum.has(b) && !this.reserved.has(b)) {
        this.alnum.add(b);
        return b;
      }
    }
  }
}
