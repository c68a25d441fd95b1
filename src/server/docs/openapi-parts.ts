// Pieces of /openapi.json that every operation uses: the error answers an operation can give (from
// the one error table, with the headers each status carries), query parameters generated from a
// TypeBox object schema (the one the route reads them with), and curl samples.
import type { TObject, TSchema } from '@sinclair/typebox';
import { ERRORS, type ErrorKey } from '../../domain/api-errors.ts';

/** Plain JSON (TypeBox marks schemas with symbol keys, which JSON drops anyway). */
export const plain = (s: unknown) => JSON.parse(JSON.stringify(s)) as Record<string, unknown>;

export const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Consultas por mês do plano.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Consultas restantes neste mês.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'Início do próximo mês (America/Sao_Paulo), em segundos desde 1970.',
    schema: { type: 'integer' },
  },
};

/** Which data answered (server/api/registry-headers.ts); absent only while no month is served. */
export const REGISTRY_HEADERS = {
  'X-Registry-Month': {
    description: 'Mês dos dados da Receita Federal que responderam (AAAA-MM).',
    schema: { type: 'string', examples: ['2026-11'] },
  },
  'X-Registry-Release': {
    description:
      'Versão publicada dos dados que responderam (por exemplo 2026-11-3f2a9c1b7d4e5a60); o mesmo valor em todos os servidores que servem a mesma versão.',
    schema: { type: 'string' },
  },
};

/** The headers an error status carries once the token is known (docs/errors.md). */
function headersOf(status: number): Record<string, unknown> {
  if (status === 429)
    return {
      ...RATE_HEADERS,
      'Retry-After': { description: 'Segundos até a renovação da cota.', schema: { type: 'integer' } },
    };
  if (status === 503)
    return {
      ...RATE_HEADERS,
      'Retry-After': { description: 'Segundos para tentar de novo (server_busy).', schema: { type: 'integer' } },
    };
  if (status === 401 || status === 403 || status === 500) return {};
  return RATE_HEADERS;
}

/** Every error of the route that a token-checked API route can give, whatever it does. */
export const COMMON_ERRORS: readonly ErrorKey[] = [
  'bad_request',
  'missing_token',
  'invalid_token',
  'token_deactivated',
  'token_expired',
  'account_suspended',
  'plan_without_api',
  'quota_exceeded',
  'internal_error',
  'registry_unavailable',
  'server_busy',
];

const TABLE_ORDER = Object.keys(ERRORS);

/** The `responses` entries of `keys`, one per status, each code described and exemplified (in the table's order). */
export function errorResponses(keys: readonly ErrorKey[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorKey[]>();
  for (const k of [...keys].sort((a, b) => TABLE_ORDER.indexOf(a) - TABLE_ORDER.indexOf(b)))
    byStatus.set(ERRORS[k].status, [...(byStatus.get(ERRORS[k].status) ?? []), k]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const defs = list.map((k) => ERRORS[k]);
    out[String(status)] = {
      description: defs.map((d) => `\`${d.error}\`: ${d.when}`).join(' '),
      headers: headersOf(status),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(defs.map((d) => [d.error, { value: { error: d.error, message: d.message } }])),
        },
      },
    };
  }
  return out;
}

/** OpenAPI query parameters from the TypeBox object the route reads them with (server/http/query-params.ts). */
export function queryParameters(schema: TObject): Record<string, unknown>[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, TSchema>).map(([name, prop]) => {
    const { description, ...rest } = plain(prop);
    return { name, in: 'query', required: required.has(name) && rest.default === undefined, description, schema: rest };
  });
}

/** The `x-codeSamples` of an operation (shown by Redoc and similar readers): one curl line or several. */
export const curlSample = (...sources: string[]) =>
  sources.map((source, i) => ({ lang: 'curl', label: i ? `curl (${i + 1})` : 'curl', source }));

/** An operation's 200: a JSON answer of a component schema, with the quota headers and an example. */
export const okJson = (description: string, schema: string, example: unknown) => ({
  '200': {
    description,
    headers: RATE_HEADERS,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, example } },
  },
});
