// BrasilAPI's shape (BrasilAPI/BrasilAPI @ 0104c49c94017e47560615c8713ba7686ae2e381): the handler
// (pages/api/cnpj/v1/[cnpj].js) asks Minha Receita (services/cnpj.js) and answers
// `res.json(data)`: Minha Receita's object through JSON.parse and JSON.stringify, so the same keys
// in the same order, compact. Minha Receita's 400 and 404 become BadRequestError and
// NotFoundError (errors/*.js, middlewares/errorHandler.js). docs/compat.md §3.
import type { BrasilApiError } from './brasilapi-schema.ts';
import { minhaReceitaCompany, minhaReceitaParse, writeCompanyCompact } from './minha-receita.ts';
import type { CompatAnswer, CompatShape } from './shape.ts';
import { formatCnpj } from '../cnpj.ts';

const errorBody = (message: string, type: string, name: string): string =>
  JSON.stringify({ message, type, name } satisfies BrasilApiError);

/** An Error name in BrasilAPI's style (errors/*.js) for this project's refusals. */
const NAMES: Readonly<Record<number, string>> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  429: 'TooManyRequestsError',
  503: 'ServiceUnavailableError',
};

// middlewares/cache.js sets Cache-Control on every answer; Next.js res.json the Content-Type.
// Upstream sends `max-age=0, s-maxage=86400, stale-while-revalidate, public` for its CDN. Our
// answers are per token and counted: `public`/`s-maxage` would let a shared cache serve an
// answer fetched with one Authorization header to anybody (RFC 9111 §3.5), uncounted. Browsers
// see the same as upstream's (revalidate every time).
const UPSTREAM_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'private, max-age=0',
} as const;
// This project's own refusals (token, quota, outage): kept out of shared caches.
const REFUSAL_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } as const;

export const brasilApi: CompatShape = {
  name: 'brasilapi',
  parse(raw) {
    const p = minhaReceitaParse(raw);
    return 'cnpj' in p ? p : { invalid: { status: 400, body: errorBody(p.message, 'bad_request', 'BadRequestError') } };
  },
  found(rows, ctx) {
    // JSON.stringify's text, written by a writer compiled for the object's keys (faster).
    return { status: 200, body: writeCompanyCompact(minhaReceitaCompany(rows, ctx)) };
  },
  notFound(cnpj): CompatAnswer {
    return {
      status: 404,
      body: errorBody(`CNPJ ${formatCnpj(cnpj)} não encontrado.`, 'not_found', 'NotFoundError'),
    };
  },
  refused(status, code, message) {
    return { status, body: errorBody(message, code, NAMES[status] ?? 'InternalError') };
  },
  headers(status) {
    return status === 200 || status === 400 || status === 404 || status === 500 ? UPSTREAM_HEADERS : REFUSAL_HEADERS;
  },
};
