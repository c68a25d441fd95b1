// Sending the API's answers: JSON with its length, and the error answers of the one table
// (domain/api-errors.ts), with the headers the table gives them.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { ERRORS, type ErrorDef, type ErrorKey } from '../../domain/api-errors.ts';
import type { ErrorBody } from '../../domain/company/schema.ts';

/** Writes a JSON body with its length (no chunked encoding for a few hundred bytes). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string | number>,
): void {
  const json = JSON.stringify(body);
  // One writeHead instead of a setHeader per header: this is every API answer. nosniff: a
  // browser never reads a JSON answer as anything else (HTML, script).
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(json);
}

/**
 * The error answer for `key`: its status and code, `message` when the caller knows a more
 * specific sentence, else the table's. A fixed Retry-After of the table is added here; one that
 * depends on the quota comes in `headers` (see retryAfter()).
 */
export function sendError(
  res: ServerResponse,
  key: ErrorKey,
  headers?: Record<string, string | number>,
  message?: string,
): void {
  const def: ErrorDef = ERRORS[key];
  const body: ErrorBody = { error: def.error, message: message ?? def.message };
  const seconds = def.retryAfter;
  sendJson(res, def.status, body, typeof seconds === 'number' ? { 'Retry-After': seconds, ...headers } : headers);
}

/**
 * The whole HTTP/1.1 answer, closing the connection, for an error node meets before a request
 * object exists (its 'clientError': malformed request, headers too large, timeout).
 */
export function rawErrorResponse(key: ErrorKey): string {
  const def: ErrorDef = ERRORS[key];
  const body: ErrorBody = { error: def.error, message: def.message };
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${def.status} ${STATUS_CODES[def.status]}\r\n` +
    `Date: ${new Date().toUTCString()}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Connection: close\r\n\r\n' +
    json
  );
}
