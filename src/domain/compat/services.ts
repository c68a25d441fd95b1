// The four upstream services the compat routes stand in for, as /docs, /openapi.json and the web
// app name them: the shape, our route, the upstream URL client code calls today, how the upstream
// errs.
import { brasilApi } from './brasilapi.ts';
import { minhaReceita } from './minha-receita.ts';
import { opencnpj } from './opencnpj.ts';
import { receitaWsShape } from './receitaws.ts';
import type { CompatShape } from './shape.ts';

export interface CompatService {
  shape: CompatShape;
  service: string;
  /** Our route, as documented. */
  route: string;
  /** The upstream's URL the client code calls today. */
  upstream: string;
  /** How the upstream answers errors. */
  errors: string;
}

export const COMPAT_SERVICES: readonly CompatService[] = [
  {
    shape: brasilApi,
    service: 'BrasilAPI',
    route: 'GET /api/cnpj/v1/{cnpj}',
    upstream: 'https://brasilapi.com.br/api/cnpj/v1/{cnpj}',
    errors: '{"message", "type", "name"} com 400/404',
  },
  {
    shape: minhaReceita,
    service: 'Minha Receita',
    route: 'GET /minha-receita/{cnpj}',
    upstream: 'https://minhareceita.org/{cnpj}',
    errors: '{"message"} com 400/404',
  },
  {
    shape: opencnpj,
    service: 'OpenCNPJ',
    route: 'GET /opencnpj/{cnpj}',
    upstream: 'https://api.opencnpj.org/{cnpj}',
    errors: '{"error"} com 400/404',
  },
  {
    shape: receitaWsShape,
    service: 'ReceitaWS',
    route: 'GET /v1/cnpj/{cnpj}',
    upstream: 'https://www.receitaws.com.br/v1/cnpj/{cnpj}',
    errors: 'HTTP 200 com {"status": "ERROR", "message"}',
  },
];
