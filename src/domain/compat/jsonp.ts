// JSONP for the ReceitaWS route (`?callback=NAME`): browser code reaches ReceitaWS's free API with
// a <script> tag rather than fetch (docs/compat.md §5.3). The wrapper is Express's `res.jsonp`
// (expressjs/express lib/response.js), which any JSONP caller accepts: ReceitaWS's
// `toISOString()` timestamps suggest a Node server, but its own wrapper is not known.

// Express's allowed characters: letters, digits, `_`, `$`, `.`, `[`, `]` (`[^\[\]\w$.]` stripped).
const NAME = /^[[\]\w$.]+$/;
// Longest name accepted: jQuery's generated names are ~40 characters, koa-jsonp caps at 512.
export const JSONP_NAME_MAX = 512;

/**
 * The function name to wrap the answer in, from the `callback` query value (the first one when
 * repeated); null for a plain JSON answer: absent or empty (as Express), and also a name with other
 * characters or longer than JSONP_NAME_MAX. Express strips the other characters and wraps anyway;
 * we refuse the name instead (the answer stays plain JSON, which a <script> tag does not run), so a
 * name is never silently turned into another one.
 */
export function jsonpCallback(value: string | readonly string[] | null | undefined): string | null {
  const v = typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > JSONP_NAME_MAX) return null;
  return NAME.test(v) ? v : null;
}

/**
 * `json` as Express's res.jsonp writes it for `name`. U+2028 and U+2029 are valid inside JSON
 * strings but ended a JavaScript string literal before ES2019, so they are escaped. `/**\/` guards
 * against the "Rosetta Flash" attack (CVE-2014-4671); the typeof check spares callers an error
 * when the function is gone.
 */
export function jsonpBody(name: string, json: string): string {
  const body =
    json.includes('\u2028') || json.includes('\u2029')
      ? json.replaceAll('\u2028', '\\u2028').replaceAll('\u2029', '\\u2029')
      : json;
  return `/**/ typeof ${name} === 'function' && ${name}(${body});`;
}

/** Headers of a JSONP answer (Express: text/javascript with its charset, and nosniff). */
export const JSONP_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/javascript; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
});
