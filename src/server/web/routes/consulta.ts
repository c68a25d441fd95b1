// The Consulta page (GET /api-de-cnpj/consulta), its CSV (…/consulta.csv) and the record page
// (…/consulta/:cnpj), for every user of the account. Each spends one call of the account's
// monthly quota exactly where the API would (one per results page, record, CSV), counted by
// the API's own access layer (Meter.identifyAccount: no token). A page of results goes
// through the very function the API's search routes use (countedSearch, domain/search/counted.ts),
// so the checks come in one order for both; a refusal counts nothing and shows the API's sentence.
import type { AccessIdentity } from '../../../domain/metering/access.ts';
import { ERRORS, type ErrorKey } from '../../../domain/api-errors.ts';
import { normalizeCnpj } from '../../../domain/cnpj.ts';
import { companiesCsv } from '../../../domain/company/csv.ts';
import { companiesPage, countedSearch, suggestions } from '../../../domain/search/counted.ts';
import { missingFilter } from '../../../domain/search/paging.ts';
import { CompanySearchQuerySchema, SuggestQuerySchema } from '../../../domain/search/query-schema.ts';
import { decodeSafe } from '../../../lib/uri.ts';
import { queryReader } from '../../http/query-params.ts';
import type { WebContext } from '../context.ts';
import { page } from '../guard.ts';
import { sendHtml, setSecurityHeaders, type Req, type Res } from '../http.ts';
import { consultaPage, recordPage, type ConsultaForm } from '../pages/consulta.ts';
import { headerUser, type Viewer } from '../viewer.ts';

const FIELDS = ['q', 'uf', 'municipio', 'cnae', 'situacao_cadastral'] as const;
const readQuery = queryReader(CompanySearchQuerySchema);
const readSuggest = queryReader(SuggestQuerySchema);

function formOf(req: Req): ConsultaForm {
  const one = (name: string) => {
    const v = req.query[name];
    return (Array.isArray(v) ? (v[0] ?? '') : (v ?? '')).trim().slice(0, 200);
  };
  return Object.fromEntries(FIELDS.map((f) => [f, one(f)])) as unknown as ConsultaForm;
}

/** The filled fields (and a cursor) as a query string: the API's names and values; with a name, one row per company. */
function queryOf(form: ConsultaForm, cursor?: string | null): URLSearchParams {
  const q = new URLSearchParams();
  for (const f of FIELDS) if (form[f] !== '') q.set(f, form[f]);
  if (form.q !== '') q.set('group', 'company');
  if (cursor) q.set('cursor', cursor);
  return q;
}

class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}
const refuse = (key: ErrorKey, message: string = ERRORS[key].message) => new Refusal(ERRORS[key].status, message);

/** The account's access, or its refusal (suspended, plan without API). */
async function accessOf(ctx: WebContext, viewer: Viewer): Promise<AccessIdentity | Refusal> {
  const id = await ctx.access.identifyAccount(viewer.account.id);
  return id.ok ? id : new Refusal(id.status, id.message);
}

/** One page of results for the form and cursor, counted; or the refusal (nothing counted then). */
async function searchPage(ctx: WebContext, viewer: Viewer, form: ConsultaForm, cursor: string | undefined) {
  const out = await countedSearch(ctx, {
    identify: () => ctx.access.identifyAccount(viewer.account.id),
    read: () => readQuery(Object.fromEntries(queryOf(form, cursor))),
    check: missingFilter,
    answer: (search, snap, v) => companiesPage(ctx.registry, search, snap, v),
  });
  if (out.kind === 'denied') return new Refusal(out.denied.status, out.denied.message);
  if (out.kind === 'uncounted') return refuse(out.key, out.message);
  return { results: out.value.data, next: out.value.next };
}

export function consultaRoutes(ctx: WebContext) {
  const show = page(ctx, async (req, res, viewer) => {
    const form = formOf(req);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const base = { viewer: headerUser(viewer), form };
    // The first visit (nothing filled): the form only, no call spent.
    if (FIELDS.every((f) => form[f] === '') && cursor === undefined) return sendHtml(res, consultaPage(base));
    const r = await searchPage(ctx, viewer, form, cursor);
    if (r instanceof Refusal) return sendHtml(res, consultaPage({ ...base, error: r.message }), { status: r.status });
    const nextQuery = r.next === null ? null : queryOf(form, r.next).toString();
    sendHtml(
      res,
      consultaPage({ ...base, results: r.results, nextQuery, thisQuery: queryOf(form, cursor).toString() }),
    );
  });

  const csv = page(ctx, async (req, res, viewer) => {
    const form = formOf(req);
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const r = await searchPage(ctx, viewer, form, cursor);
    if (r instanceof Refusal)
      return sendHtml(res, consultaPage({ viewer: headerUser(viewer), form, error: r.message }), { status: r.status });
    const body = companiesCsv(r.results);
    res.statusCode = 200;
    setSecurityHeaders(res);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="empresas.csv"');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  });

  const record = page(ctx, async (req: Req, res: Res, viewer) => {
    const v = headerUser(viewer);
    const fail = (r: Refusal) => sendHtml(res, recordPage({ viewer: v, error: r.message }), { status: r.status });
    const id = await accessOf(ctx, viewer);
    if (id instanceof Refusal) return fail(id);
    const cnpj = normalizeCnpj(decodeSafe(req.params.cnpj ?? ''));
    if (cnpj === null) return fail(refuse('invalid_cnpj'));
    if (!ctx.registry.available) return fail(refuse('registry_unavailable'));
    // As the API: a CNPJ not in the registry (404) is counted too.
    const counted = await ctx.access.charge(id);
    if (!counted.ok) return fail(new Refusal(counted.status, counted.message));
    const found = ctx.registry.lookup(cnpj);
    if (found === null) return fail(refuse('not_found'));
    sendHtml(res, recordPage({ viewer: v, record: found }));
  });

  // The name field's typeahead (assets/suggest-script.ts): the API's suggest, counted like it.
  const suggest = page(ctx, async (req, res, viewer) => {
    const one = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
    const values = Object.fromEntries(
      (['q', 'uf', 'limit'] as const).flatMap((k) => (one(k) === undefined ? [] : [[k, one(k)!]])),
    );
    const out = await countedSearch(ctx, {
      identify: () => ctx.access.identifyAccount(viewer.account.id),
      read: () => readSuggest(values),
      answer: (search, snap, v) => suggestions(ctx.registry, search, snap, v),
    });
    const [status, body] =
      out.kind === 'answered'
        ? [200, { data: out.value }]
        : out.kind === 'denied'
          ? [out.denied.status, { error: out.denied.message }]
          : [ERRORS[out.key].status, { error: out.message ?? ERRORS[out.key].message }];
    const text = JSON.stringify(body);
    res.statusCode = status;
    setSecurityHeaders(res);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  });

  return { show, csv, record, suggest };
}
