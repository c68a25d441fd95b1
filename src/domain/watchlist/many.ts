// POST /api/v1/watchlist's work: a list of CNPJs as typed (formatted or not), each valid one added
// (all of them in one transaction, or none when the plan's limit would be passed), an answer per
// input in the order given, as the batch lookup answers (domain/company/batch.ts).
import { ERRORS } from '../api-errors.ts';
import { normalizeCnpj } from '../cnpj.ts';
import type { AddResult } from './add.ts';
import type { WatchlistAddItem, WatchlistAddResponse } from './schema.ts';

export interface AddPlan {
  readonly inputs: readonly string[];
  /** Per input: its normalised CNPJ, or null when invalid. */
  readonly normalised: readonly (string | null)[];
  /** The valid ones, each once. */
  readonly valid: readonly string[];
}

export function planAdd(inputs: readonly string[]): AddPlan {
  const normalised = inputs.map((s) => normalizeCnpj(s));
  return { inputs, normalised, valid: [...new Set(normalised.filter((c): c is string => c !== null))] };
}

const invalid = (input: string): WatchlistAddItem => ({
  cnpj: input,
  status: 400,
  error: 'invalid_cnpj',
  message: ERRORS.invalid_cnpj.message,
});

/** Every input answered once the valid ones are added; a CNPJ added now is 201 at its first place, 200 after. */
export function addAnswer(plan: AddPlan, added: Extract<AddResult, { ok: true }>): WatchlistAddResponse {
  const seen = new Set<string>();
  let count = 0;
  const results = plan.normalised.map((cnpj, i): WatchlistAddItem => {
    if (cnpj === null) return invalid(plan.inputs[i]!);
    const row = added.rows.get(cnpj)!;
    const first = !seen.has(cnpj);
    seen.add(cnpj);
    if (row.added && first) count++;
    return { cnpj, status: row.added && first ? 201 : 200, added_at: row.added_at };
  });
  return { results, added: count, total: added.used, watchlist_limit: added.limit };
}

/** The answer to a list with no valid CNPJ: nothing written, every input refused. */
export function noneValidAnswer(plan: AddPlan, used: number, limit: number): WatchlistAddResponse {
  return { results: plan.inputs.map(invalid), added: 0, total: used, watchlist_limit: limit };
}
