// PostgreSQL's jsonb output text (jsonb_out): `{"k": v, "k2": v2}`, `[a, b]`, one space after
// each `:` and `,`, strings escaped as JSON.stringify escapes them (`"`, `\`, \b \f \n \r \t,
// other controls as \u00XX in lower case; everything else raw UTF-8), numbers as numeric prints
// them: plain notation, never an exponent. Key order is the caller's: jsonb sorts keys by length,
// then bytewise, so callers build their objects in that order once, in code, not per answer.
import { plainDecimal } from './float32.ts';

// Most strings need no escaping: a test is cheaper than JSON.stringify's call for each of them.
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const quoted = (s: string) => (NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  return n < 0 ? `-${plainDecimal(String(-n))}` : plainDecimal(String(n));
}

/** A value the compiled writers meet: the leaves, or an array or object written generically. */
function jsonbValue(v: unknown): string {
  if (typeof v === 'string') return quoted(v);
  if (v === null) return 'null';
  if (typeof v === 'number') return numberText(v);
  return jsonbText(v);
}

/** The same as JSON.stringify writes it (numbers as String(n): `1e+21`). */
function compactValue(v: unknown): string {
  if (typeof v === 'string') return quoted(v);
  if (v === null) return 'null';
  if (typeof v === 'number') return String(v);
  return JSON.stringify(v);
}

/** Writes one object shape: its keys fixed, in the order given. */
export type JsonbWriter<T> = (o: T) => string;

/**
 * A writer of objects with these keys, in this order, compiled once: one concatenation per
 * object instead of a key enumeration and a call per value (an answer has ~80 values). `nested`
 * names the keys holding arrays of objects and the writer of their items. `jsonb` (default) gives
 * jsonbText's text for such objects; `compact` gives JSON.stringify's (tested).
 */
export function jsonbWriter<T>(
  keys: readonly string[],
  nested: Readonly<Record<string, JsonbWriter<never>>> = {},
  style: 'jsonb' | 'compact' = 'jsonb',
): JsonbWriter<T> {
  const [colon, comma] = style === 'jsonb' ? [': ', ', '] : [':', ','];
  const items: JsonbWriter<never>[] = [];
  const parts = keys.map((k, i) => {
    // Keys go into generated code: this project's identifiers only.
    if (!/^[a-z0-9_]+$/.test(k)) throw new Error(`unexpected key ${k}`);
    const head = JSON.stringify(`${i === 0 ? '{' : comma}"${k}"${colon}`);
    const item = nested[k];
    if (item === undefined) return `${head} + v(o.${k})`;
    items.push(item);
    return `${head} + list(o.${k}, items[${items.length - 1}])`;
  });
  const list = (a: never[], w: JsonbWriter<never>) => {
    let out = '[';
    for (let i = 0; i < a.length; i++) out += (i === 0 ? '' : comma) + w(a[i]!);
    return out + ']';
  };
  const body = keys.length === 0 ? '"{}"' : `${parts.join(' + ')} + "}"`;
  return new Function('v', 'list', 'items', `return (o) => ${body};`)(
    style === 'jsonb' ? jsonbValue : compactValue,
    list,
    items,
  ) as JsonbWriter<T>;
}

/** The jsonb text of a JSON value (objects in their own key order). */
export function jsonbText(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return quoted(v);
    case 'number':
      return numberText(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i === 0 ? '' : ', ') + jsonbText(v[i]);
    return out + ']';
  }
  let out = '{';
  let first = true;
  for (const k in v as Record<string, unknown>) {
    // Keys are this project's identifiers ([a-z0-9_]): nothing to escape.
    out += `${first ? '' : ', '}"${k}": ${jsonbText((v as Record<string, unknown>)[k])}`;
    first = false;
  }
  return out + '}';
}
