// POST /api/v1/brazilian_companies/batch: up to 1,000 CNPJs in one request (domain/company/batch.ts).
// Order (docs/errors.md): authenticate → media type (415) → body within 64 KB (413) → body shape
// (400) → registry available (503) → ONE reservation of a call per distinct valid CNPJ, all or
// nothing (429, nothing answered) → every answer. As for a lookup, the calls are counted on disk
// before the answer leaves (group commit), and the refusals before the count count nothing.
import type { AccessLayer } from '../../domain/metering/access.ts';
import { answerBatch, planBatch, readBatchRequest } from '../../domain/company/batch.ts';
import type { BatchResponse } from '../../domain/company/list-schema.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { readJsonBody } from '../http/json-body.ts';
import { identified, rateLimitHeaders, sendDenied, sendUncounted } from './access.ts';
import { sendJson } from './errors.ts';

export const BATCH_ROUTE = '/api/v1/brazilian_companies/batch';

/**
 * The body's bound. 1,000 formatted CNPJs take about 22 KB (`"33.683.111/0002-80",`), 27 KB
 * pretty-printed: 64 KB leaves room for any client's layout while holding each request's buffer
 * small (a process takes 2,048 requests at once, docs/http-limits.md).
 */
export const BATCH_BODY_LIMIT = 64 * 1024;

export interface BatchDeps {
  access: AccessLayer;
  registry: CompanyRegistry;
}

export function batchHandler(deps: BatchDeps) {
  const { access, registry } = deps;
  return identified(access, async (req, res, id, token) => {
    const body = await readJsonBody(req, BATCH_BODY_LIMIT);
    if (!body.ok) {
      // Past a too-large body the connection closes: the rest of it is not worth reading.
      const close = body.error === 'body_too_large' ? { Connection: 'close' } : undefined;
      return sendUncounted(res, access, token, body.error, body.message, close);
    }
    const request = readBatchRequest(body.value);
    if (!request.ok) return sendUncounted(res, access, token, 'invalid_body', request.message);
    if (!registry.available) return sendUncounted(res, access, token, 'registry_unavailable');
    const plan = planBatch(request.cnpjs);
    let headers: Record<string, number>;
    if (plan.distinct.length === 0) {
      // Only invalid CNPJs: nothing to count, answered like a lookup's 400 (429 when used up).
      const q = await access.authenticate(token);
      if (!q.ok) return sendDenied(res, q);
      headers = rateLimitHeaders(q.quota);
    } else {
      const counted = await access.charge(id, plan.distinct.length);
      if (!counted.ok) return sendDenied(res, counted);
      headers = rateLimitHeaders(counted.quota);
    }
    const answer: BatchResponse = { results: answerBatch(plan, (cnpj) => registry.lookup(cnpj)) };
    sendJson(res, 200, answer, headers);
  });
}
