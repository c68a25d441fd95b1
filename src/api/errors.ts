// Every non-2xx answer of the API (contract section 5): status, stable code, Portuguese message.
// The /docs page and /openapi.json list this same table.
import type { ServerResponse } from 'node:http';
import type { ErrorBody } from '../company/schema.ts';

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
