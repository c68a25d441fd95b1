// The requests of the API golden capture. Tokens appear as {name} (see makeTokens in capture.ts),
// so the golden file holds no secret and stays the same from one run to the next.

export interface Case {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is on a connection of its own instead of method, path and headers. */
  raw?: string;
  /** JSON string fields blanked before hashing (they change per import). */
  volatileFields?: readonly string[];
}

/** /api/v1/status fields that change per import: the snapshot id (a time stamp) and the import time. */
export const VOLATILE_STATUS_FIELDS = ['id', 'imported_at'];

const API = '/api/v1/brazilian_companies';
const auth = (token = 'main') => ({ Authorization: `Bearer {${token}}` });
const get = (name: string, path: string, headers: Record<string, string> = auth()): Case => ({
  name,
  method: 'GET',
  path,
  headers,
});
const lookupPath = (cnpj: string) => `${API}/${cnpj}/company`;

/** `AA.AAA.AAA/OOOO-DD` */
const formatted = (c: string) => `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;

/** The mod-11 check digits of a 12-character body ([0-9A-Z], each worth its char code - 48). */
function withCheckDigits(body: string): string {
  const dv = (s: string, w: number[]) => {
    const r = [...s].reduce((sum, ch, i) => sum + (ch.charCodeAt(0) - 48) * w[i], 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = dv(body, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return `${body}${d1}${dv(body + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])}`;
}

/** Whether the establishment at `index` of the sample is asked in every form (else in the first two only). */
export type AllForms = (cnpj: string, index: number) => boolean;

/**
 * The lookup forms for each establishment (all of them, or digits and formatted only where
 * `allForms` says no: the forms exercise the path parsing, the same for every row), then the
 * head office of each company without one in the sample.
 */
export function lookupCases(cnpjs: string[], bases: string[], allForms: AllForms): Case[] {
  const cases: Case[] = [];
  cnpjs.forEach((c, i) => {
    const f = formatted(c);
    cases.push(
      get(`lookup ${c}: digits`, lookupPath(c)),
      get(`lookup ${c}: formatted, slash encoded`, lookupPath(encodeURIComponent(f))),
    );
    if (!allForms(c, i)) return;
    cases.push(
      get(`lookup ${c}: formatted, slash as a path separator`, lookupPath(f)),
      get(`lookup ${c}: formatted, dots and dash only`, lookupPath(f.replace('/', ''))),
      get(`lookup ${c}: api_token in the query`, `${lookupPath(c)}?api_token={main}`, {}),
      get(`lookup ${c}: lower-case bearer`, lookupPath(c), { Authorization: 'bearer {main}' }),
      get(`lookup ${c}: other query parameters`, `${lookupPath(c)}?x=1&y=2`),
      { name: `lookup ${c}: HEAD`, method: 'HEAD', path: lookupPath(c), headers: auth() },
      get(`lookup ${c}: without /company`, `${API}/${c}`),
    );
  });
  for (const b of bases) {
    const head = withCheckDigits(`${b}0001`);
    if (!cnpjs.includes(head))
      cases.push(
        get(`lookup ${head}: head office of a company without establishments in the sample`, lookupPath(head)),
      );
  }
  return cases;
}

/** The same establishments once extra contacts were loaded for them (the formatted form where `allForms` says so). */
export function contactCases(cnpjs: string[], allForms: AllForms): Case[] {
  return cnpjs.flatMap((c, i) => [
    get(`lookup ${c}: with extra contacts`, lookupPath(c)),
    ...(allForms(c, i)
      ? [get(`lookup ${c}: with extra contacts, formatted`, lookupPath(encodeURIComponent(formatted(c))))]
      : []),
  ]);
}

/** Errors, token states, routes and methods, the documents; `c` is a CNPJ present in the sample. */
export function fixedCases(c: string): Case[] {
  const look = lookupPath(c);
  const wrongDv = c.slice(0, 13) + String((Number(c[13]) + 1) % 10);
  const absent = withCheckDigits('999999990001');
  return [
    // The CNPJ in the path.
    get('invalid: 3 digits', lookupPath('123')),
    get('invalid: 13 digits', lookupPath(c.slice(0, 13))),
    get('invalid: 15 digits', lookupPath(`${c}0`)),
    get('invalid: wrong check digit', lookupPath(wrongDv)),
    get('invalid: all zeros', lookupPath('00000000000000')),
    get('invalid: letters in the check digits', lookupPath(`${c.slice(0, 12)}AB`)),
    get('invalid: letters only', lookupPath('ABCDEFGHIJKLMN')),
    get('invalid: other punctuation', lookupPath(`${c.slice(0, 2)}_${c.slice(2)}`)),
    get('invalid: bad percent-encoding', lookupPath(`${c}%ZZ`)),
    get('invalid: 40 characters', lookupPath('1'.repeat(40))),
    get('valid with spaces around (encoded)', lookupPath(`%20${c}%20`)),
    get('absent: numeric, valid check digits', lookupPath(absent)),
    get('absent: alphanumeric, valid check digits', lookupPath('12ABC34501DE35')),
    get('absent: alphanumeric, lower case', lookupPath('12abc34501de35')),
    get('absent: valid, encoded digits', lookupPath([...absent].map((d) => `%3${d}`).join(''))),
    get('route: empty CNPJ segment', `${API}//company`),
    get('route: three segments', `${API}/12/345/678/company`),
    get('route: trailing slash', `${look}/`),
    get('route: double leading slash', `/${look}`),
    get('route: upper-case path', look.toUpperCase()),
    get('route: collection', API),
    get('route: /api', '/api', {}),
    get('route: unknown', '/nada', {}),
    get('route: unknown, a browser', '/nada', { Accept: 'text/html' }),
    get('route: root', '/', {}),
    // The token and the account behind it.
    get('token: none', look, {}),
    get('token: garbage', look, { Authorization: 'Bearer not-a-token' }),
    get('token: valid shape, unknown', look, auth('unknown')),
    get('token: empty api_token', `${look}?api_token=`, {}),
    get('token: Basic scheme', look, { Authorization: 'Basic dXNlcjpwYXNz' }),
    get('token: header wins over query', `${look}?api_token=not-a-token`),
    get('token: deactivated', look, auth('off')),
    get('token: expired', look, auth('expired')),
    get('token: account suspended', look, auth('suspended')),
    get('token: plan without API', look, auth('noapi')),
    get('token: quota 0', look, auth('quota0')),
    get('token: quota 0, invalid CNPJ', lookupPath('123'), auth('quota0')),
    get('token: quota 2, call 1', look, auth('quota2')),
    get('token: quota 2, invalid CNPJ (not counted)', lookupPath('123'), auth('quota2')),
    get('token: quota 2, absent CNPJ (counted)', lookupPath(absent), auth('quota2')),
    get('token: quota 2, call 3', look, auth('quota2')),
    get('token: invalid token before invalid CNPJ', lookupPath('123'), { Authorization: 'Bearer not-a-token' }),
    // Methods.
    ...['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((m) => ({
      name: `method: ${m} on the lookup`,
      method: m,
      path: look,
      headers: auth(),
    })),
    { name: 'method: POST /healthz', method: 'POST', path: '/healthz' },
    { name: 'method: DELETE /api/v1/status', method: 'DELETE', path: '/api/v1/status' },
    { name: 'method: POST /docs', method: 'POST', path: '/docs' },
    { name: 'method: DELETE on an unknown route', method: 'DELETE', path: '/nada' },
    { name: 'HEAD: lookup without a token', method: 'HEAD', path: look },
    { name: 'HEAD: unknown route', method: 'HEAD', path: '/nada' },
    // Service routes and documents (built from PUBLIC_URL, so the same on every run).
    get('service: /healthz', '/healthz', {}),
    { ...get('service: /api/v1/status', '/api/v1/status', {}), volatileFields: VOLATILE_STATUS_FIELDS },
    {
      name: 'service: HEAD /api/v1/status',
      method: 'HEAD',
      path: '/api/v1/status',
      volatileFields: VOLATILE_STATUS_FIELDS,
    },
    get('service: /openapi.json', '/openapi.json', {}),
    get('service: /docs', '/docs', {}),
    { name: 'service: HEAD /healthz', method: 'HEAD', path: '/healthz' },
    { name: 'service: HEAD /openapi.json', method: 'HEAD', path: '/openapi.json' },
    { name: 'service: HEAD /docs', method: 'HEAD', path: '/docs' },
    get('service: /docs/ (trailing slash)', '/docs/', {}),
    get('service: /openapi.json with a query', '/openapi.json?x=1', {}),
    // Requests node itself refuses or questions before any route runs.
    { name: 'raw: malformed request line', method: '', path: '', raw: 'GARBAGE\r\n\r\n' },
    {
      name: 'raw: headers over the size limit',
      method: '',
      path: '',
      raw: `GET ${look} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    },
    {
      name: 'raw: Expect other than 100-continue',
      method: '',
      path: '',
      raw: `GET ${look} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {main}\r\nExpect: something\r\n\r\n`,
    },
  ];
}
