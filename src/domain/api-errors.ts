// The API's error vocabulary (docs/errors.md), in one table: code → HTTP status, Portuguese
// message, the headers it carries. The access checks produce these codes, the server sends them
// (server/api/errors.ts), /docs and /openapi.json list them, the web app quotes them.

export interface ErrorDef {
  status: number;
  /** The code on the wire (route_not_found answers `not_found`). */
  error: string;
  /** The sentence when nothing more specific is known. */
  message: string;
  /** When it happens, for the docs page. */
  when: string;
  /** A sentence made more specific by what the check knew (expiry date, plan, renewal day). */
  specific?: (details: never) => string;
  /** Retry-After: fixed seconds, or the seconds until the quota resets (see retryAfter()). */
  retryAfter?: number | 'quota_reset';
}

/** 'YYYY-MM-DD' as Brazilians write it. */
const brDate = (ymd: string) => `${ymd.slice(8, 10)}/${ymd.slice(5, 7)}/${ymd.slice(0, 4)}`;

export const ERRORS = {
  invalid_cnpj: {
    status: 400,
    error: 'invalid_cnpj',
    message:
      'CNPJ inválido: informe 14 caracteres (letras ou números nas 12 primeiras posições) com os dígitos verificadores corretos.',
    when: 'O CNPJ não tem 14 caracteres [0-9A-Z] com dígitos verificadores numéricos, ou os dígitos verificadores não conferem, ou é 00000000000000 (que passa no cálculo, mas nunca é emitido).',
  },
  invalid_parameter: {
    status: 400,
    error: 'invalid_parameter',
    message: 'Parâmetro inválido na URL. Consulte a documentação em /docs.',
    when: 'Um parâmetro da URL é desconhecido, repetido ou tem valor fora do permitido, ou o cursor não é o next_cursor desta mesma consulta; a mensagem nomeia o parâmetro e o que é aceito.',
  },
  missing_filter: {
    status: 400,
    error: 'missing_filter',
    message:
      'Informe ao menos um filtro da busca (q, uf, municipio, cep, cnae, situacao_cadastral, matriz_filial, natureza_juridica, porte, opc_simples, opc_mei, has_email, has_telefone, inicio_atividade_min/max ou capital_social_min/max).',
    when: 'Busca ou contagem de empresas sem nenhum filtro (cnae_secundario sozinho não filtra).',
  },
  invalid_body: {
    status: 400,
    error: 'invalid_body',
    message: 'O corpo da requisição é inválido: envie um JSON no formato {"cnpjs": ["..."]} com de 1 a 1.000 CNPJs.',
    when: 'O corpo não é JSON, não tem a forma esperada ou tem 0 ou mais de 1.000 itens; a mensagem diz o problema.',
  },
  unsupported_media_type: {
    status: 415,
    error: 'unsupported_media_type',
    message: 'O corpo da requisição deve ser JSON: envie o cabeçalho "Content-Type: application/json".',
    when: 'Requisição com corpo sem o cabeçalho Content-Type: application/json.',
  },
  body_too_large: {
    status: 413,
    error: 'body_too_large',
    message: 'O corpo da requisição é grande demais.',
    when: 'O corpo passa do limite da rota (64 KB no lote); a conexão é encerrada.',
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
    specific: (d: { expiresOn: string }) =>
      `Este token da API expirou em ${brDate(d.expiresOn)}. Crie um novo em "Gerenciar Tokens da API".`,
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
    specific: (d: { plan: string }) => `O plano ${d.plan} não inclui acesso à API de CNPJ.`,
    when: 'O plano da conta não inclui a API.',
  },
  quota_exceeded: {
    status: 429,
    error: 'quota_exceeded',
    message: 'A cota mensal de consultas da API foi atingida; ela será renovada no início do próximo mês.',
    // A batch refused while some calls remain says so (it would fit with fewer CNPJs).
    specific: (d: { limit: number; renewsOn: string; needed?: number; remaining?: number }) =>
      d.needed !== undefined && d.needed > 1 && d.remaining !== undefined && d.remaining > 0
        ? `Este lote precisa de ${d.needed.toLocaleString('pt-BR')} consultas, mas restam ${d.remaining.toLocaleString('pt-BR')} da cota mensal de ${d.limit.toLocaleString('pt-BR')} consultas da API; ela será renovada em ${brDate(d.renewsOn)}.`
        : `A cota mensal de ${d.limit.toLocaleString('pt-BR')} consultas da API foi atingida; ela será renovada em ${brDate(d.renewsOn)}.`,
    when: 'A cota mensal do plano acabou (com Retry-After, em segundos).',
    retryAfter: 'quota_reset',
  },
  address_rate_limited: {
    status: 429,
    error: 'address_rate_limited',
    message: 'Consultas sem token demais deste endereço. Tente novamente em alguns segundos.',
    when: 'Rotas de compatibilidade sem token (opção do operador --compat-open-account): o endereço passou do limite por minuto (com Retry-After, em segundos).',
  },
  not_found: {
    status: 404,
    error: 'not_found',
    message: 'CNPJ não encontrado na base da Receita Federal carregada.',
    when: 'CNPJ válido que não está na base carregada (conta como consulta).',
  },
  not_watched: {
    status: 404,
    error: 'not_watched',
    message: 'Este CNPJ não está na lista de monitoramento da conta.',
    when: 'Remoção de um CNPJ que a conta não monitora (conta como consulta).',
  },
  watchlist_limit_exceeded: {
    status: 409,
    error: 'watchlist_limit_exceeded',
    message: 'A lista de monitoramento atingiu o limite de CNPJs do plano; nada foi adicionado.',
    specific: (d: { plan: string; limit: number; needed: number; remaining: number }) =>
      `${d.needed === 1 ? 'Este CNPJ não cabe' : `Estes ${d.needed.toLocaleString('pt-BR')} CNPJs novos não cabem`} na lista de monitoramento: o plano ${d.plan} permite ${d.limit.toLocaleString('pt-BR')} CNPJs e ${d.remaining === 1 ? 'resta 1 vaga' : `restam ${d.remaining.toLocaleString('pt-BR')} vagas`}. Nada foi adicionado.`,
    when: 'Adicionar à lista de monitoramento passaria do limite de CNPJs do plano; nada é adicionado, a mensagem diz quantas vagas restam (conta como consulta).',
  },
  registry_unavailable: {
    status: 503,
    error: 'registry_unavailable',
    message: 'A base de CNPJs ainda não foi importada neste servidor. Tente novamente mais tarde.',
    when: 'Nenhuma base da Receita foi importada ainda.',
  },
  not_ready: {
    status: 503,
    error: 'not_ready',
    message: 'Este servidor ainda não está pronto para atender consultas. Tente novamente em alguns segundos.',
    when: 'Resposta de GET /readyz quando este servidor não pode atender: nenhuma base da Receita carregada, o banco de contas não responde, ou (numa frota) ele serve outra versão da base que a dos demais servidores; o campo reason diz qual (com Retry-After, em segundos). Não conta como consulta.',
    // A load balancer probes again within seconds; an import or a disk coming back takes longer.
    retryAfter: 5,
  },
  search_unavailable: {
    status: 503,
    error: 'search_unavailable',
    message:
      'A busca de empresas ainda não está disponível na base carregada neste servidor; a consulta por CNPJ continua funcionando. Tente novamente mais tarde.',
    when: 'A base carregada foi importada sem o índice de busca (até ser importada de novo); a consulta por CNPJ funciona.',
  },
  month_not_recorded: {
    status: 404,
    error: 'month_not_recorded',
    message: 'Não há mudanças registradas para o mês pedido neste servidor. Omita month para o mês mais recente.',
    when: 'GET /api/v1/changes com um month sem mudanças registradas, ou antes do primeiro mês registrado (não conta como consulta).',
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
    // The backlog of one process clears in well under a second.
    retryAfter: 1,
  },
  database_unavailable: {
    status: 503,
    error: 'database_unavailable',
    message: 'O banco de dados de contas está temporariamente indisponível. Tente novamente em alguns segundos.',
    when: 'Modo frota: o PostgreSQL compartilhado não responde (a chamada não foi atendida; com Retry-After, em segundos). O servidor volta sozinho quando o banco volta.',
    // The pool reconnects on its next query: a failover or a restart takes seconds.
    retryAfter: 2,
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
  expectation_failed: {
    status: 417,
    error: 'expectation_failed',
    message: 'O cabeçalho Expect da requisição não é suportado; envie-a sem ele ou com "Expect: 100-continue".',
    when: 'Cabeçalho Expect com valor diferente de 100-continue (a conexão é encerrada).',
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

/**
 * The Retry-After of an answer, in seconds: the table's fixed value, or for 'quota_reset' the
 * time from `at` to the quota's reset (X-RateLimit-Reset, epoch seconds), at least 1.
 */
export function retryAfter(key: ErrorKey, at: Date, quotaReset = 0): number | undefined {
  const rule = (ERRORS[key] as ErrorDef).retryAfter;
  return rule === 'quota_reset' ? Math.max(1, Math.ceil(quotaReset - at.getTime() / 1000)) : rule;
}
