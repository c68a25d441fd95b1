// Deterministic PRNG (sfc32 seeded through splitmix32): output must be byte-identical for
// the same seed, so Math.random is never used.

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    const sm = splitmix32((seed ^ Math.imul(stream + 1, 0x632be5ab)) >>> 0);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm() | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Float in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(arr: readonly T[]): T {
    return arr[this.int(arr.length)];
  }

  /** `n` decimal digits, leading zeros allowed. */
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(48 + this.int(10));
    return s;
  }
}

/** Precomputed cumulative weights for fast weighted picks. */
export class Weighted<T> {
  private readonly items: T[];
  private readonly cum: Float64Array;
  private readonly total: number;

  constructor(pairs: ReadonlyArray<readonly [T, number]>) {
    this.items = pairs.map((p) => p[0]);
    this.cum = new Float64Array(pairs.length);
    let t = 0;
    pairs.forEach((p, i) => {
      t += p[1];
      this.cum[i] = t;
    });
    this.total = t;
  }

  /** Items in frequency order, the i-th weighted 1/(i + k): a Zipf-like head over a short list. */
  static ranked<T>(items: readonly T[], k = 1): Weighted<T> {
    return new Weighted(items.map((it, i) => [it, 1 / (i + k)] as const));
  }

  pick(rng: Rng): T {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cum[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

/**
 * A Zipf-like index in [0, n): P(i) ∝ 1/(i + k), drawn by inverting the continuous CDF (one exp
 * per draw, no table). k = 1 is plain Zipf(1); a larger k flattens the head (the top index gets
 * about 1/(k·ln(n/k)) of the draws).
 */
export class ZipfIndex {
  private readonly logSpan: number;
  constructor(
    readonly n: number,
    readonly k = 1,
  ) {
    this.logSpan = Math.log((n + k) / k);
  }

  pick(rng: Rng): number {
    const i = Math.floor(this.k * Math.exp(rng.next() * this.logSpan) - this.k);
    return i < this.n ? i : this.n - 1;
  }
}
