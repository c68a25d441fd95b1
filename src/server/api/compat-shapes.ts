// The four compat shapes and where each is served: its paths (each also behind /t/{token}/), how
// its upstream answers a CORS preflight, and its upstream's sentence for a method it does not
// take. The shapes themselves (bodies, errors) are in domain/compat.
import { brasilApi } from '../../domain/compat/brasilapi.ts';
import { minhaReceita } from '../../domain/compat/minha-receita.ts';
import { opencnpj } from '../../domain/compat/opencnpj.ts';
import { receitaWsShape } from '../../domain/compat/receitaws.ts';
import type { CompatShape } from '../../domain/compat/shape.ts';

export interface CompatRoutes {
  shape: CompatShape;
  /** The lookup paths: `:cnpj`, or a masked CNPJ's two segments `:a/:b` where the upstream takes them. */
  paths: readonly string[];
  /** Every path under this prefix answers in the shape's envelope, matched or not. */
  prefix: string;
  preflightStatus: number;
  preflightMethods: string;
  /** Sent when the preflight names no headers; Authorization is always among them. */
  preflightHeaders: string;
  /** The sentence of a 405. */
  methodNotAllowed: string;
}

export const COMPAT_SHAPES: readonly CompatRoutes[] = [
  {
    // BrasilAPI's `cors` middleware: origin *, its method list, preflight 204 (app.js).
    shape: brasilApi,
    paths: ['/api/cnpj/v1/:cnpj'],
    prefix: '/api/cnpj/',
    preflightStatus: 204,
    preflightMethods: 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS',
    preflightHeaders: 'Authorization, Content-Type',
    methodNotAllowed: 'Método HTTP não permitido nesta rota.',
  },
  {
    // api/api.go companyHandler: OPTIONS 200, GET only.
    shape: minhaReceita,
    paths: ['/minha-receita/:cnpj', '/minha-receita/:a/:b'],
    prefix: '/minha-receita/',
    preflightStatus: 200,
    preflightMethods: 'GET, OPTIONS',
    preflightHeaders: 'Accept, Content-Type, Content-Length, Accept-Encoding, Authorization',
    methodNotAllowed: 'Essa URL aceita apenas o método GET.',
  },
  {
    // src/Worker/src/http.ts: preflight 204, GET only.
    shape: opencnpj,
    paths: ['/opencnpj/:cnpj', '/opencnpj/:a/:b'],
    prefix: '/opencnpj/',
    preflightStatus: 204,
    preflightMethods: 'GET, OPTIONS',
    preflightHeaders: 'Content-Type, Accept, Authorization',
    methodNotAllowed: 'method not allowed',
  },
  {
    // No upstream source; the commercial API's `/days/{n}` suffix is accepted and `n` ignored.
    shape: receitaWsShape,
    paths: ['/v1/cnpj/:cnpj', '/v1/cnpj/:a/:b', '/v1/cnpj/:cnpj/days/:n'],
    prefix: '/v1/cnpj/',
    preflightStatus: 204,
    preflightMethods: 'GET, OPTIONS',
    preflightHeaders: 'Authorization, Content-Type',
    methodNotAllowed: 'Método HTTP não permitido nesta rota.',
  },
];

/** `/t/{token}` in front of a compat path: what follows it. */
const TOKEN_PREFIX = /^\/t\/[^/]+(?=\/)/;

/** The shape whose prefix `path` is under (with or without /t/{token}/), or null. */
export function compatPrefix(path: string): CompatRoutes | null {
  const bare = path.replace(TOKEN_PREFIX, '');
  for (const r of COMPAT_SHAPES) if (bare.startsWith(r.prefix)) return r;
  return null;
}
