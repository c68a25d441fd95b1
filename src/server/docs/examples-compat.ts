// The compat routes' curl lines for /docs and /openapi.json: the token in a header or in the
// /t/{token}/ prefix.
import { EXAMPLE_CNPJ } from '../../domain/cnpj.ts';

const trim = (baseUrl: string) => baseUrl.replace(/\/+$/, '');

export const compatCurl = (baseUrl: string, token: 'header' | 'path') =>
  token === 'header'
    ? `curl -H "Authorization: Bearer $CNPJ_API_TOKEN" ${trim(baseUrl)}/api/cnpj/v1/${EXAMPLE_CNPJ}`
    : `curl ${trim(baseUrl)}/t/$CNPJ_API_TOKEN/v1/cnpj/${EXAMPLE_CNPJ}`;
