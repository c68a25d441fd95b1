// The row digest of the snapshot tables that have one (DIGEST_COLUMN in storage/snapshots/tables.ts):
// a 47-bit hash of a row's values after its key, so the monthly comparison can tell an unchanged
// row from its index entry alone. Two 32-bit multiply-xor lanes over each value's type tag and
// length, then its characters (or an integer's two words), so ['ab', 'c'] and ['a', 'bc'], NULL
// and '', 12 and '12' all differ, as they do to SQLite's IS; a murmur3-style finaliser mixes both
// lanes. Hand-written: it runs once per imported row (~170 M per month), and costs less per
// establishment than a crypto hash call alone (docs/benchmarks.md, "Row digests").
import type { SqlParam } from './tables/source-table.ts';

const M1 = 0x01000193;
const M2 = 0x5bd1e995;

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Digest of `row[from..to)`: an integer in [0, 2^47). */
export function rowDigest(row: readonly SqlParam[], from: number, to: number): number {
  let h1 = 0x811c9dc5;
  let h2 = 0x2545f491;
  for (let i = from; i < to; i++) {
    const v = row[i];
    if (typeof v === 'number' && Number.isSafeInteger(v)) {
      // Integers as two 32-bit words, no string made (most columns are codes and dates).
      const lo = v | 0;
      const hi = Math.floor(v / 0x100000000) | 0;
      h1 = Math.imul(Math.imul(h1 ^ 3, M1) ^ lo, M1) ^ hi;
      h2 = Math.imul(Math.imul(h2 ^ 3, M2) ^ hi, M2) ^ lo;
      h1 = Math.imul(h1, M1);
      h2 = Math.imul(h2, M2);
      continue;
    }
    const tag = v === null ? 1 : typeof v === 'string' ? 2 : 4;
    const s = v === null ? '' : typeof v === 'string' ? v : String(v);
    const n = s.length;
    h1 = Math.imul(h1 ^ tag ^ (n << 8), M1);
    h2 = Math.imul(h2 ^ tag ^ (n << 8), M2);
    // Two UTF-16 units per step.
    let j = 0;
    for (; j + 1 < n; j += 2) {
      const c = s.charCodeAt(j) | (s.charCodeAt(j + 1) << 16);
      h1 = Math.imul(h1 ^ c, M1);
      h2 = Math.imul(h2 ^ c, M2);
    }
    if (j < n) {
      const c = s.charCodeAt(j);
      h1 = Math.imul(h1 ^ c, M1);
      h2 = Math.imul(h2 ^ c, M2);
    }
  }
  const a = fmix(h1 ^ Math.imul(h2, 0x27d4eb2f));
  const b = fmix(h2 ^ Math.imul(a, 0x165667b1));
  return (b & 0x7fff) * 0x100000000 + (a >>> 0);
}
