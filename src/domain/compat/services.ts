// The four upstream services the compat routes stand in for, as /docs, /openapi.json and the web
// app name them: our route, the upstream URL client code calls today, how the upstream errs.
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
