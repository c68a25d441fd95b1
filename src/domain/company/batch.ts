// The batch lookup (POST /api/v1/brazilian_companies/batch): up to 1,000 CNPJs in one request,
// each answered as its own lookup would be, in the order given. Two steps around the counting:
// planBatch() reads the request and tells how many calls it costs (one per distinct valid CNPJ:
// a CNPJ given twice is answered twice and counted once; an invalid one is not counted, as a
// single lookup's 400 is not); answerBatch() then looks each distinct CNPJ up once.
import { ERRORS } from '../api-errors.ts';
import { normalizeCnpj } from '../cnpj.ts';
import { BATCH_MAX, type BatchItem } from './list-schema.ts';
import type { CompanyResponse } from './schema.ts';

export interface BatchPlan {
  /** Per input, in order: its normalised CNPJ, or null when invalid. */
  readonly normalised: readonly (string | null)[];
  readonly inputs: readonly string[];
  /** The distinct valid CNPJs: the calls the batch counts. */
  readonly distinct: readonly string[];
}

const pt = (n: number) => n.toLocaleString('pt-BR');

/**
 * The body's CNPJ list, or the sentence saying what is wrong with it (400 invalid_body). The body
 * is `{"cnpjs": [...]}`, 1 to BATCH_MAX strings, formatted or not, and nothing else.
 */
export function readBatchRequest(body: unknown): { ok: true; cnpjs: string[] } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail('O corpo deve ser um objeto JSON no formato {"cnpjs": ["..."]}.');
  for (const key of Object.keys(body)) {
    if (key !== 'cnpjs')
      return fail(`O corpo tem o membro "${key.slice(0, 40)}", que não existe; envie só {"cnpjs": ["..."]}.`);
  }
  const list = (body as { cnpjs?: unknown }).cnpjs;
  if (list === undefined) return fail('Informe a lista "cnpjs" no corpo: {"cnpjs": ["..."]}.');
  if (!Array.isArray(list)) return fail('"cnpjs" deve ser uma lista de CNPJs em texto: {"cnpjs": ["..."]}.');
  if (list.length === 0) return fail(`A lista "cnpjs" está vazia; envie de 1 a ${pt(BATCH_MAX)} CNPJs.`);
  if (list.length > BATCH_MAX)
    return fail(`A lista "cnpjs" tem ${pt(list.length)} itens; o limite é ${pt(BATCH_MAX)} por lote.`);
  const i = list.findIndex((v) => typeof v !== 'string');
  if (i >= 0) return fail(`O item ${i} de "cnpjs" (contando do 0) não é um texto: envie cada CNPJ entre aspas.`);
  return { ok: true, cnpjs: list as string[] };
}

export function planBatch(inputs: readonly string[]): BatchPlan {
  const normalised = inputs.map((s) => normalizeCnpj(s));
  const distinct = [...new Set(normalised.filter((c): c is string => c !== null))];
  return { normalised, inputs, distinct };
}

/**
 * Every input's answer, in order: 200 with the lookup's response, 404 not_found, or 400
 * invalid_cnpj with the input as given. `lookup` answers a normalised CNPJ (null: absent); it is
 * called once per distinct CNPJ, synchronously, so the whole batch reads one snapshot.
 */
export function answerBatch(plan: BatchPlan, lookup: (cnpj: string) => CompanyResponse | null): BatchItem[] {
  const found = new Map<string, CompanyResponse | null>();
  // In CNPJ order: neighbouring keys share pages of the cnpj and basico indexes, which a cold page
  // cache then reads once instead of once per item.
  for (const cnpj of [...plan.distinct].sort()) found.set(cnpj, lookup(cnpj));
  return plan.normalised.map((cnpj, i): BatchItem => {
    if (cnpj === null)
      return {
        cnpj: plan.inputs[i]!,
        status: 400,
        error: ERRORS.invalid_cnpj.error,
        message: ERRORS.invalid_cnpj.message,
      };
    const data = found.get(cnpj);
    return data
      ? { cnpj, status: 200, data }
      : { cnpj, status: 404, error: ERRORS.not_found.error, message: ERRORS.not_found.message };
  });
}
