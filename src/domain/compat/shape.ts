// What each compatibility shape (BrasilAPI, Minha Receita, OpenCNPJ, ReceitaWS) provides to the
// compat route (server/api/compat.ts): how its upstream reads the CNPJ in the path, its 200 body,
// and every error in its upstream's envelope. The route owns the rest, the same for all four:
// the token (header, api_token or /t/{token}/), counting, rate-limit headers, CORS.
import type { CompatContext, CompatRows } from './rows.ts';

/** One answer: status and the body's exact text (each upstream has its own spacing and key order). */
export interface CompatAnswer {
  readonly status: number;
  readonly body: string;
}

export type CompatParse =
  /** The 14 characters to look up (upper case, no punctuation). */
  | { readonly cnpj: string }
  /** Refused as the upstream refuses it (its 400, or ReceitaWS's 200 "CNPJ inválido"). */
  | { readonly invalid: CompatAnswer };

export interface CompatShape {
  /** Route prefix and log/metrics name. */
  readonly name: 'brasilapi' | 'minha-receita' | 'opencnpj' | 'receitaws';
  /**
   * The CNPJ part of the path, percent-decoded (a masked CNPJ may hold one `/`), as the upstream
   * validates it. A CNPJ the upstream accepts but this project calls invalid (Minha Receita's
   * fourteen zeros, OpenCNPJ's wrong check digits) parses fine: the route answers `notFound`
   * for it without counting a call.
   */
  parse(raw: string): CompatParse;
  /** The 200 answer for an establishment. */
  found(rows: CompatRows, ctx: CompatContext): CompatAnswer;
  /** The upstream's answer for a well-formed CNPJ it does not have. */
  notFound(cnpj: string): CompatAnswer;
  /**
   * One of this project's own refusals in the upstream's envelope: missing or wrong token (401),
   * suspended account (403), quota or rate limit (429), registry or database unavailable (503),
   * method not allowed (405), unknown path under the prefix (404). `code` is this project's
   * error code (docs/errors.md), `message` its Portuguese sentence.
   */
  refused(status: number, code: string, message: string): CompatAnswer;
  /** Headers the upstream sends with every answer of this status, beyond CORS (Cache-Control, Content-Type). */
  headers(status: number): Readonly<Record<string, string>>;
}
