// Minha Receita's capital_social: the dump's decimal parsed as a float32 (transform/cast.go
// toFloat, strconv.ParseFloat(s, 32): the float32 nearest to the exact decimal, ties to even) and
// written as the shortest decimal that reads back as that float32 (Go's encoding/json for a
// float32; PostgreSQL's jsonb then keeps those digits, in plain notation).
//
// Rounding through a double first (Math.fround(cents / 100)) is wrong only when the double lands
// exactly on the midpoint between two float32s: every such midpoint is itself a double, so if the
// exact value were on the other side of it, the midpoint would be a nearer double than the one
// chosen. For cents below 2^53 that never happens unless the value IS the midpoint: C/100 differs
// from a midpoint m·2^e (m odd) by at least 2^e/100, far more than half a double's spacing there
// (about 2^(e+24−53)). The check stays anyway (it costs one comparison) and settles such a case
// exactly, with BigInt, as it must for the decimals the shortest-digits search below tries.
// test/domain/compat/minha-receita.test.ts holds the values checked against an exact rational
// rounding and numpy's Dragon4 shortest float32 digits.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The float32 next to `x` (itself a float32, finite, > 0) upwards or downwards. */
function step32(x: number, up: boolean): number {
  f32[0] = x;
  u32[0] += up ? 1 : -1;
  return f32[0];
}

/** A positive finite double as M × 2^E with M, E integers. */
function dyadic(x: number): [bigint, number] {
  f64[0] = x;
  const bits = u64[0]!;
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & 0xfffffffffffffn;
  return exp === 0 ? [frac, -1074] : [frac | (1n << 52n), exp - 1075];
}

/** Sign of (D × 10^k − x) for a non-negative decimal D × 10^k and a positive double x, exactly. */
function compareDecimal(d: bigint, k: number, x: number): number {
  const [m, e] = dyadic(x);
  let left = d;
  let right = m;
  if (k >= 0) left *= 10n ** BigInt(k);
  else right *= 10n ** BigInt(-k);
  if (e >= 0) right <<= BigInt(e);
  else left <<= BigInt(-e);
  return left > right ? 1 : left < right ? -1 : 0;
}

/**
 * The float32 nearest to the decimal D × 10^k (`exact`, asked for only when needed), given
 * `approx`, the double nearest to it (correctly rounded: a division of two exact doubles, or
 * Number() of a decimal string).
 */
function nearestFloat32(approx: number, exact: () => [bigint, number]): number {
  const f = Math.fround(approx);
  if (f === approx || !Number.isFinite(f) || f === 0) return f;
  const g = step32(f, f < approx);
  const mid = (f + g) / 2;
  if (approx !== mid) return f;
  // The double is a float32 midpoint: which side the exact decimal lies on decides.
  const [d, k] = exact();
  const c = compareDecimal(d, k, mid);
  if (c === 0) return f; // a true tie: Math.fround already chose the even one
  return c > 0 ? Math.max(f, g) : Math.min(f, g);
}

const TWO_24 = 1n << 24n;

/** The float32 nearest to C/100 for cents past 2^53 (BigInt all the way); Infinity past float32's range. */
function float32OfBigCents(c: bigint): number {
  if (c === 0n) return 0;
  // e with 2^e <= c/100 < 2^(e+1), then the 24-bit significand q = round(c × 2^(23−e) / 100).
  // Called for c ≥ 2^53 only, so e ≥ 46 and every shift below is to the left.
  let e = c.toString(2).length - 7;
  while (c < 100n << BigInt(e)) e--;
  while (c >= 100n << BigInt(e + 1)) e++;
  const shift = 23 - e;
  const num = shift >= 0 ? c << BigInt(shift) : c;
  const den = shift >= 0 ? 100n : 100n << BigInt(-shift);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && (q & 1n) === 1n)) q++;
  if (q === TWO_24) {
    q >>= 1n;
    e++;
  }
  if (e > 127) return Infinity;
  return Number(q) * 2 ** (e - 23);
}

/** Float32 of a capital in integer cents ≥ 0 (a safe integer, or the TEXT of its digits past 2^53). */
export function float32OfCents(cents: number | string): number {
  const c = typeof cents === 'number' ? cents : BigInt(cents);
  if (typeof c === 'bigint' && c >= 1n << 53n) return float32OfBigCents(c);
  const n = Number(c);
  return nearestFloat32(n / 100, () => [BigInt(n), -2]);
}

/** "1e+21" → "1000000000000000000000"; plain text as given. For non-negative values. */
export function plainDecimal(s: string): string {
  const at = s.indexOf('e');
  if (at < 0) return s;
  const mantissa = s.slice(0, at);
  const exp = Number(s.slice(at + 1));
  const dot = mantissa.indexOf('.');
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const point = (dot < 0 ? mantissa.length : dot) + exp;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** True when the decimal string `s` parses (float32, ties to even) to exactly `x`. */
function readsBackAs(s: string, x: number): boolean {
  return nearestFloat32(Number(s), () => decimalParts(s)) === x;
}

/** The p-digit decimal after `s` (`s` from toPrecision(p)): its last digit plus one. */
function nextAtPrecision(s: string, p: number): string {
  const [d, k] = decimalParts(s);
  return Number(`${d + 1n}e${k}`).toPrecision(p);
}

/** Mantissa digits and power of ten of a toPrecision() string: "1.25e+3" → [125n, 1]. */
function decimalParts(s: string): [bigint, number] {
  const at = s.indexOf('e');
  const mantissa = at < 0 ? s : s.slice(0, at);
  const dot = mantissa.indexOf('.');
  const k = (at < 0 ? 0 : Number(s.slice(at + 1))) - (dot < 0 ? 0 : mantissa.length - dot - 1);
  return [BigInt(mantissa.replace('.', '')), k];
}

/**
 * toPrecision breaks a tie between two p-digit decimals upwards; Go's shortest formatting keeps
 * the even last digit (strconv/ftoaryu.go: an exact half rounds up only an odd digit).
 */
function evenOnTie(s: string, x: number, p: number): string {
  // A tie needs x to be exactly p+1 digits ending in 5; the cheap test first.
  const t = x.toPrecision(p + 1);
  if (Number(t) !== x || t[t.indexOf('e') < 0 ? t.length - 1 : t.indexOf('e') - 1] !== '5') return s;
  const [d, k] = decimalParts(s);
  if ((d & 1n) === 0n || compareDecimal(d * 10n - 5n, k - 1, x) !== 0) return s;
  return Number(`${d - 1n}e${k}`).toPrecision(p);
}

/**
 * The shortest decimal that reads back as the float32 `x` (x ≥ 0, finite), in plain notation; of
 * two such at the shortest length, the nearer to x (Go's strconv.FormatFloat(x, 'f'/'e', -1, 32)).
 */
export function shortestFloat32(x: number): string {
  if (x === 0) return '0';
  // Only at a power of two is the interval that reads back as x lopsided (the gap below is half
  // the gap above): there the nearest p-digit decimal can fall out while the next one up is in.
  f32[0] = x;
  const powerOfTwo = (u32[0]! & 0x7fffff) === 0;
  for (let p = 1; p < 10; p++) {
    const s = evenOnTie(x.toPrecision(p), x, p);
    if (readsBackAs(s, x)) return plainDecimal(String(Number(s)));
    if (powerOfTwo) {
      const up = nextAtPrecision(s, p);
      if (readsBackAs(up, x)) return plainDecimal(String(Number(up)));
    }
  }
  return plainDecimal(String(x));
}

/**
 * capital_social as the upstream's JSON number: the double nearest to the shortest decimal of the
 * float32 (so JSON.stringify prints that decimal, as BrasilAPI does after parsing Minha Receita's
 * text); null past float32's range, where Go's ParseFloat fails and the upstream's transform stops.
 */
export function capitalFloat32(cents: number | string): number | null {
  let v = memo.get(cents);
  if (v === undefined) {
    const x = float32OfCents(cents);
    v = Number.isFinite(x) ? Number(shortestFloat32(x)) : null;
    // Capitals repeat a lot (round amounts): a bounded memo spares the costly digit search.
    if (memo.size >= 4096) memo.clear();
    memo.set(cents, v);
  }
  return v;
}
const memo = new Map<number | string, number | null>();
