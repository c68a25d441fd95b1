// The documented examples of the API, shared by /openapi.json and /docs: curl commands and the
// bodies of the listing and the batch, built by the real code (mapping, cursor, batch answers) so
// the documentation cannot drift from what the routes send.
import { EXAMPLE_BASE, EXAMPLE_CNPJ, EXAMPLE_CNPJ_PRETTY, makeCnpj } from '../../domain/cnpj.ts';
import { answerBatch, planBatch } from '../../domain/company/batch.ts';
import { establishmentsCursor } from '../../domain/company/establishments.ts';
import { exampleResponse } from '../../domain/company/example.ts';
import type { BatchResponse, EstablishmentsPage } from '../../domain/company/list-schema.ts';

const HEAD_OFFICE = makeCnpj(EXAMPLE_BASE, '0001');
/** The example with its last check digit wrong: answered as invalid. */
const WRONG_CHECK_DIGITS = EXAMPLE_CNPJ.slice(0, 13) + '1';
const ABSENT = makeCnpj('99999999', '0001');
const api = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}/api/v1/brazilian_companies`;

export const lookupCurl = (baseUrl: string) =>
  `curl -H "Authorization: Bearer $CNPJ_API_TOKEN" ${api(baseUrl)}/${EXAMPLE_CNPJ}/company`;

export const establishmentsCurl = (baseUrl: string, cursor?: string) =>
  `curl -H "Authorization: Bearer $CNPJ_API_TOKEN" "${api(baseUrl)}/${EXAMPLE_CNPJ}/establishments?limit=20${cursor ? `&cursor=${cursor}` : ''}"`;

export const BATCH_EXAMPLE_REQUEST = { cnpjs: [EXAMPLE_CNPJ_PRETTY, WRONG_CHECK_DIGITS, ABSENT] };

export const batchCurl = (baseUrl: string) =>
  `curl -X POST -H "Authorization: Bearer $CNPJ_API_TOKEN" -H "Content-Type: application/json" -d '${JSON.stringify(BATCH_EXAMPLE_REQUEST)}' ${api(baseUrl)}/batch`;

/** The second page of SERPRO's establishments with limit=1 (the head office was the first), as the listing answers it. */
export function establishmentsExample(): EstablishmentsPage {
  return {
    data: [exampleResponse().company],
    next_cursor: establishmentsCursor(EXAMPLE_BASE, EXAMPLE_CNPJ, HEAD_OFFICE),
  };
}

/** The batch's answer to BATCH_EXAMPLE_REQUEST: found, invalid (as sent), not found. */
export function batchExample(): BatchResponse {
  return {
    results: answerBatch(planBatch(BATCH_EXAMPLE_REQUEST.cnpjs), (cnpj) =>
      cnpj === EXAMPLE_CNPJ ? exampleResponse() : null,
    ),
  };
}
