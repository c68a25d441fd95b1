// The compat routes as /docs, /openapi.json and the web app show them: one row per upstream
// service, and the curl lines with the token in a header or in the /t/{token}/ prefix.
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';

export interface CompatService {
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
    service: 'BrasilAPI',
    route: 'GET /api/cnpj/v1/{cnpj}',
    upstream: 'https://brasilapi.com.br/api/cnpj/v1/{cnpj}',
    errors: '{"message", "type", "name"} com 400/404',
  },
  {
    service: 'Minha Receita',
    route: 'GET /minha-receita/{cnpj}',
    upstream: 'https://minhareceita.org/{cnpj}',
    errors: '{"message"} com 400/404',
  },
  {
    service: 'OpenCNPJ',
    route: 'GET /opencnpj/{cnpj}',
    upstream: 'https://api.opencnpj.org/{cnpj}',
    errors: '{"error"} com 400/404',
  },
  {
    service: 'ReceitaWS',
    route: 'GET /v1/cnpj/{cnpj}',
    upstream: 'https://www.receitaws.com.br/v1/cnpj/{cnpj}',
    errors: 'HTTP 200 com {"status": "ERROR", "message"}',
  },
];

const trim = (baseUrl: string) => baseUrl.replace(/\/+$/, '');

export const compatCurl = (baseUrl: string, token: 'header' | 'path') =>
  token === 'header'
    ? `curl -H "Authorization: Bearer $CNPJ_API_TOKEN" ${trim(baseUrl)}/api/cnpj/v1/${EXAMPLE_CNPJ}`
    : `curl ${trim(baseUrl)}/t/$CNPJ_API_TOKEN/v1/cnpj/${EXAMPLE_CNPJ}`;
