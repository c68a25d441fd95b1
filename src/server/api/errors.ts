// Every non-2xx answer of the API (docs/errors.md): status, stable code, Portuguese message.
// The /docs page and /openapi.json list this same table.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ErrorBody } from '../../domain/company/schema.ts';

export interface ErrorDef {
  status: number;
  error: string;
  message: string;
  /** When it happens, for the docs page. */
  when: string;
}

export const ERRORS = {
  invalid_cnpj: {
    status: 400,
    error: 'invalid_cnpj',
    message: 'CNPJ inválido: informe 14 caracteres (letras ou números nas 12 primeiras posições) com os dígitos verificadores corretos.',
    when: 'O CNPJ não tem 14 caracteres [0-9A-Z] com dígitos verificadores numéricos, ou os dígitos verificadores não conferem, ou é 00000000000000 (que passa no cálculo, mas nunca é emitido).',
  },
  missing_token: {
    status: 401,
    error: 'missing_token',
    message: 'Informe o token da API no cabeçalho "Authorization: Bearer <token>" ou no parâmetro api_token.',
    when: 'Nenhum token enviado.',
  },
  invalid_token: {
    status: 401,
    error: 'invalid_token',
    message: 'O token da API informado é inválido.',
    when: 'Token malformado ou desconhecido.',
  },
  token_deactivated: {
    status: 401,
    error: 'token_deactivated',
    message: 'Este token da API está desativado. Reative-o em "Gerenciar Tokens da API" ou use outro token.',
    when: 'O token foi desativado.',
  },
  token_expired: {
    status: 401,
    error: 'token_expired',
    message: 'Este token da API expirou. Crie um novo em "Gerenciar Tokens da API".',
    when: 'O token passou da data de expiração.',
  },
  account_suspended: {
    status: 403,
    error: 'account_suspended',
    message: 'A conta está suspensa e seus tokens da API foram invalidados. Regularize a conta e crie um novo token.',
    when: 'A conta foi suspensa (os tokens ficam invalidados).',
  },
  plan_without_api: {
    status: 403,
    error: 'plan_without_api',
    message: 'O plano da conta não inclui acesso à API de CNPJ.',
    when: 'O plano da conta não inclui a API.',
  },
  quota_exceeded: {
    status: 429,
    error: 'quota_exceeded',
    message: 'A cota mensal de consultas da API foi atingida; ela será renovada no início do próximo mês.',
    when: 'A cota mensal do plano acabou (com Retry-After, em segundos).',
  },
  not_found: {
    status: 404,
    error: 'not_found',
    message: 'CNPJ não encontrado na base da Receita Federal carregada.',
    when: 'CNPJ válido que não está na base carregada (conta como consulta).',
  },
  registry_unavailable: {
    status: 503,
    error: 'registry_unavailable',
    message: 'A base de CNPJs ainda não foi importada neste servidor. Tente novamente mais tarde.',
    when: 'Nenhuma base da Receita foi importada ainda.',
  },
  route_not_found: {
    status: 404,
    error: 'not_found',
    message: 'Rota não encontrada. Consulte a documentação em /docs.',
    when: 'Rota desconhecida.',
  },
  method_not_allowed: {
    status: 405,
    error: 'method_not_allowed',
    message: 'Método HTTP não permitido nesta rota.',
    when: 'Método HTTP não aceito pela rota (o cabeçalho Allow lista os aceitos).',
  },
  server_busy: {
    status: 503,
    error: 'server_busy',
    message: 'O servidor está com requisições demais em andamento. Tente novamente em alguns segundos.',
    when: 'Requisições demais em andamento no servidor (com Retry-After, em segundos). Não conta como consulta.',
  },
  bad_request: {
    status: 400,
    error: 'bad_request',
    message: 'Requisição HTTP malformada.',
    when: 'Linha de requisição ou cabeçalhos HTTP inválidos (a conexão é encerrada).',
  },
  request_timeout: {
    status: 408,
    error: 'request_timeout',
    message: 'A requisição não chegou completa a tempo. Envie-a novamente.',
    when: 'Os cabeçalhos ou o corpo da requisição demoraram demais para chegar (a conexão é encerrada).',
  },
  request_too_large: {
    status: 413,
    error: 'request_too_large',
    message: 'A requisição é grande demais.',
    when: 'Extensões de chunk grandes demais no corpo da requisição (a conexão é encerrada).',
  },
  headers_too_large: {
    status: 431,
    error: 'headers_too_large',
    message: 'Os cabeçalhos da requisição são grandes demais.',
    when: 'Linha de requisição e cabeçalhos somam mais do que o servidor aceita (a conexão é encerrada).',
  },
  internal_error: {
    status: 500,
    error: 'internal_error',
    message: 'Erro interno do servidor. Tente novamente; se persistir, contate o suporte.',
    when: 'Erro inesperado (registrado no servidor).',
  },
} as const satisfies Record<string, ErrorDef>;

export type ErrorKey = keyof typeof ERRORS;

/** Writes a JSON body with its length (no chunked encoding for a few hundred bytes). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string | number>): void {
  const json = JSON.stringify(body);
  // One writeHead instead of a setHeader per header: this is every API answer. nosniff: a
  // browser never reads a JSON answer as anything else (HTML, script).
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json), 'X-Content-Type-Options': 'nosniff' });
  res.end(json);
}

export function sendError(res: ServerResponse, key: ErrorKey, headers?: Record<string, string | number>, message?: string): void {
  const def = ERRORS[key];
  const body: ErrorBody = { error: def.error, message: message ?? def.message };
  sendJson(res, def.status, body, headers);
}

/**
 * The whole HTTP/1.1 answer, closing the connection, for an error node meets before a request
 * object exists (its 'clientError': malformed request, headers too large, timeout).
 */
export function rawErrorResponse(key: ErrorKey): string {
  const def = ERRORS[key];
  const body: ErrorBody = { error: def.error, message: def.message };
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${def.status} ${STATUS_CODES[def.status]}\r\n` +
    `Date: ${new Date().toUTCString()}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n` +
    'Connection: close\r\n\r\n' +
    json
  );
}
