// Query parameters read through a TypeBox object schema, for every API route that takes them
// (the establishments listing; the search). The same schema goes into /openapi.json and /docs.
//
// Rules: a parameter the schema does not name is refused (a typo must not be silently ignored),
// as is one given twice; an empty value (`cursor=`, a form's blank field) counts as absent; a
// property with a `default` takes it when absent. A refusal names the parameter and says what it
// takes, in Portuguese, built from the schema's own keywords (bounds, literals, format) or, for a
// free string, its `x-allowed` phrase. `api_token` is every API route's and always allowed.
import type { ParsedUrlQuery } from 'node:querystring';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { isCalendarDate } from '../../lib/calendar.ts';

/** Accepted everywhere: the token may come as a query parameter (docs/quotas-and-tokens.md). */
const ALWAYS_ALLOWED = new Set(['api_token']);

export type QueryResult<T extends TObject> =
  { ok: true; value: Static<T> } | { ok: false; parameter: string; message: string };

/** The JSON Schema keywords this module reads. */
interface Keywords {
  type?: string;
  const?: unknown;
  anyOf?: Keywords[];
  items?: Keywords;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  'x-allowed'?: string;
}

/** One text value → its value, or undefined when the schema does not take it. */
type Parse = (text: string) => unknown;
interface Param {
  parse: Parse;
  /** What the parameter takes, completing "O parâmetro X deve ser …". */
  allowed: string;
}

const int = (n: number) => n.toLocaleString('pt-BR');

function range(k: Keywords): string {
  if (k.minimum !== undefined && k.maximum !== undefined) return ` de ${int(k.minimum)} a ${int(k.maximum)}`;
  if (k.minimum !== undefined) return ` maior ou igual a ${int(k.minimum)}`;
  if (k.maximum !== undefined) return ` menor ou igual a ${int(k.maximum)}`;
  return '';
}

const inRange = (k: Keywords, n: number) =>
  (k.minimum === undefined || n >= k.minimum) && (k.maximum === undefined || n <= k.maximum);

/** The parser of one scalar schema; throws for a schema this module cannot read (a programming error). */
function scalar(name: string, k: Keywords): Param {
  if (k.anyOf && k.anyOf.every((s) => s.const !== undefined)) {
    const values = k.anyOf.map((s) => String(s.const));
    const byText = new Map(k.anyOf.map((s) => [String(s.const), s.const]));
    return { parse: (t) => byText.get(t), allowed: `um destes valores: ${values.join(', ')}` };
  }
  switch (k.type) {
    case 'integer':
      return {
        parse: (t) => (/^-?\d{1,15}$/.test(t) && inRange(k, Number(t)) ? Number(t) : undefined),
        allowed: `um número inteiro${range(k)}`,
      };
    case 'number':
      return {
        parse: (t) => (/^-?\d{1,15}(\.\d{1,6})?$/.test(t) && inRange(k, Number(t)) ? Number(t) : undefined),
        allowed: `um número, com ponto como separador decimal (ex.: 1500.50)${range(k)}`,
      };
    case 'boolean':
      return { parse: (t) => (t === 'true' ? true : t === 'false' ? false : undefined), allowed: 'true ou false' };
    case 'string': {
      const re = k.pattern === undefined ? null : new RegExp(k.pattern, 'u');
      const date = k.format === 'date';
      const allowed = k['x-allowed'] ?? (date ? 'uma data no formato AAAA-MM-DD' : undefined);
      if (allowed === undefined && (re !== null || k.minLength !== undefined))
        throw new Error(`query parameter ${name}: a constrained string needs 'x-allowed'`);
      return {
        parse: (t) =>
          (k.minLength === undefined || t.length >= k.minLength) &&
          (k.maxLength === undefined || t.length <= k.maxLength) &&
          (re === null || re.test(t)) &&
          (!date || isCalendarDate(t))
            ? t
            : undefined,
        allowed: allowed ?? `um texto de até ${int(k.maxLength ?? 200)} caracteres`,
      };
    }
    default:
      throw new Error(`query parameter ${name}: unsupported schema ${JSON.stringify(k)}`);
  }
}

/** A comma-separated list of scalars (`uf=SP,RJ`): each item trimmed, none empty. */
function list(name: string, k: Keywords): Param {
  const item = scalar(name, k.items ?? {});
  const max = k.maxItems ?? 100;
  return {
    parse: (t) => {
      const parts = t.split(',');
      if (parts.length > max) return undefined;
      const out: unknown[] = [];
      for (const p of parts) {
        const v = item.parse(p.trim());
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    },
    allowed: `uma lista separada por vírgulas (até ${int(max)} itens), cada item ${item.allowed}`,
  };
}

/** The names a client sees: no control characters, not endless. */
const shown = (name: string) => name.replace(/[\x00-\x1f\x7f]/g, '?').slice(0, 40);

/**
 * The reader of `schema`'s parameters, compiled once per route: query → typed values, or the
 * refusal naming the parameter. Unknown schema keywords throw here, at startup, not per request.
 */
export function queryReader<T extends TObject>(schema: T): (query: ParsedUrlQuery) => QueryResult<T> {
  const required = new Set(schema.required ?? []);
  const params = new Map<string, Param & { fallback: unknown; required: boolean }>();
  for (const [name, prop] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const k = prop as Keywords;
    const p = k.type === 'array' ? list(name, k) : scalar(name, k);
    params.set(name, { ...p, fallback: k.default, required: required.has(name) && k.default === undefined });
  }
  const names = [...params.keys()].join(', ');
  return (query) => {
    const value: Record<string, unknown> = {};
    for (const name of Object.keys(query)) {
      if (ALWAYS_ALLOWED.has(name)) continue;
      const p = params.get(name);
      if (p === undefined)
        return {
          ok: false,
          parameter: name,
          message: `O parâmetro ${shown(name)} não existe nesta rota; os aceitos são: ${names}.`,
        };
      const raw = query[name];
      if (Array.isArray(raw))
        return {
          ok: false,
          parameter: name,
          message: `O parâmetro ${name} foi informado mais de uma vez; informe-o uma só vez.`,
        };
      if (raw === undefined || raw === '') continue;
      const v = p.parse(raw);
      if (v === undefined) return { ok: false, parameter: name, message: `O parâmetro ${name} deve ser ${p.allowed}.` };
      value[name] = v;
    }
    for (const [name, p] of params) {
      if (value[name] !== undefined) continue;
      if (p.fallback !== undefined) value[name] = p.fallback;
      else if (p.required) return { ok: false, parameter: name, message: `Informe o parâmetro ${name}: ${p.allowed}.` };
    }
    return { ok: true, value: value as Static<T> };
  };
}
