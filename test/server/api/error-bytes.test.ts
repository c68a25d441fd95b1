// Every error answer of the lookup route, byte for byte (status line, headers in order, body;
// only Date left out): the contract's answers must not move when the code behind them does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { suspendAccount } from '../../../src/domain/accounts/accounts.ts';
import { deactivateToken } from '../../../src/domain/accounts/tokens.ts';
import { ABSENT, SERPRO_FILIAL, fixture } from '../fixtures.ts';
import {
  get,
  makeAccount,
  publish,
  serve,
  sleep,
  tempDataDir,
  withAppDb,
  withAppStore,
  writeSnapshot,
  type TestServer,
} from '../helpers.ts';
import { rawConnect } from '../raw-http.ts';

/** The server's clock: April 15th 2026, 09:34:56 in São Paulo. */
const NOW = Date.parse('2026-04-15T12:34:56.789Z');

async function answer(url: string, request: string): Promise<string> {
  const c = await rawConnect(url);
  try {
    c.write(request);
    const [r] = await c.responses(1);
    return `${r.head.replace(/\r\nDate: [^\r]*/, '').replaceAll('\r\n', '\n')}\n\n${r.body}`;
  } finally {
    c.end();
  }
}

const lookup = (token?: string, cnpj = SERPRO_FILIAL, method = 'GET') =>
  `${method} /api/v1/brazilian_companies/${cnpj}/company HTTP/1.1\r\nHost: x\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}\r\n`;

const json = (status: string, body: string, extra = '') =>
  `HTTP/1.1 ${status}\n${extra}Content-Type: application/json; charset=utf-8\nContent-Length: ${Buffer.byteLength(body)}\nX-Content-Type-Options: nosniff\nConnection: keep-alive\nKeep-Alive: timeout=5\n\n${body}`;
const rate = (limit: number, remaining: number) =>
  `X-RateLimit-Limit: ${limit}\nX-RateLimit-Remaining: ${remaining}\nX-RateLimit-Reset: 1777604400\n`;
/** Which data answered: the snapshot this test publishes (its id, as it was imported here). */
const REGISTRY = 'X-Registry-Month: 2026-03\nX-Registry-Release: good\n';

describe('error answers, byte for byte', () => {
  let dataDir: string;
  let server: TestServer;
  const tokens: Record<string, string> = {};

  before(async () => {
    dataDir = tempDataDir();
    server = await serve(dataDir, { now: () => new Date(NOW) });
    tokens.bronze = (await makeAccount(dataDir, 'Bronze', { plan: 'Bronze' })).token;
    const off = await makeAccount(dataDir, 'Desativado');
    await withAppStore(dataDir, (s) => deactivateToken(s, off.tokenId));
    tokens.off = off.token;
    tokens.expired = (
      await makeAccount(dataDir, 'Expirado', { expires: '2026-04-14', now: () => new Date(NOW - 2 * 86_400_000) })
    ).token;
    tokens.suspended = (await makeAccount(dataDir, 'Suspensa')).token;
    await withAppStore(dataDir, (s) => suspendAccount(s, 'Suspensa'));
    tokens.noApi = (await makeAccount(dataDir, 'SemApi', { apiIncluded: false })).token;
    const q = await makeAccount(dataDir, 'Cota', { quota: 1234 });
    await withAppDb(dataDir, (s) =>
      s.prepare("INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, '2026-04', 1234)").run(q.accountId),
    );
    tokens.used = q.token;
  });
  after(async () => {
    await server.close();
  });

  test('before any snapshot: 503 registry_unavailable with the quota headers', async () => {
    assert.equal(
      await answer(server.url, lookup(tokens.bronze)),
      json(
        '503 Service Unavailable',
        '{"error":"registry_unavailable","message":"A base de CNPJs ainda não foi importada neste servidor. Tente novamente mais tarde."}',
        rate(5000, 5000),
      ),
    );
  });

  test('token, account and quota refusals; invalid and absent CNPJs; unknown routes and methods', async () => {
    writeSnapshot(dataDir, 'good', fixture());
    await publish(dataDir, 'good', '2026-03', fixture());
    for (let i = 0; i < 100 && (await get(`${server.url}/api/v1/status`)).body.status !== 'ok'; i++) await sleep(20);
    const cases: [string, string][] = [
      [
        lookup(),
        json(
          '401 Unauthorized',
          '{"error":"missing_token","message":"Informe o token da API no cabeçalho \\"Authorization: Bearer <token>\\" ou no parâmetro api_token."}',
        ),
      ],
      [
        lookup('not-a-token'),
        json('401 Unauthorized', '{"error":"invalid_token","message":"O token da API informado é inválido."}'),
      ],
      [
        lookup(tokens.off),
        json(
          '401 Unauthorized',
          '{"error":"token_deactivated","message":"Este token da API está desativado. Reative-o em \\"Gerenciar Tokens da API\\" ou use outro token."}',
        ),
      ],
      [
        lookup(tokens.expired),
        json(
          '401 Unauthorized',
          '{"error":"token_expired","message":"Este token da API expirou em 14/04/2026. Crie um novo em \\"Gerenciar Tokens da API\\"."}',
        ),
      ],
      [
        lookup(tokens.suspended),
        json(
          '403 Forbidden',
          '{"error":"account_suspended","message":"A conta está suspensa e seus tokens da API foram invalidados. Regularize a conta e crie um novo token."}',
        ),
      ],
      [
        lookup(tokens.noApi),
        json(
          '403 Forbidden',
          '{"error":"plan_without_api","message":"O plano Plano SemApi não inclui acesso à API de CNPJ."}',
        ),
      ],
      [
        lookup(tokens.used),
        json(
          '429 Too Many Requests',
          '{"error":"quota_exceeded","message":"A cota mensal de 1.234 consultas da API foi atingida; ela será renovada em 01/05/2026."}',
          `${rate(1234, 0)}Retry-After: 1347904\n`,
        ),
      ],
      [
        lookup(tokens.used, '123'),
        json(
          '429 Too Many Requests',
          '{"error":"quota_exceeded","message":"A cota mensal de 1.234 consultas da API foi atingida; ela será renovada em 01/05/2026."}',
          `${rate(1234, 0)}Retry-After: 1347904\n`,
        ),
      ],
      [
        lookup(tokens.bronze, '123'),
        json(
          '400 Bad Request',
          '{"error":"invalid_cnpj","message":"CNPJ inválido: informe 14 caracteres (letras ou números nas 12 primeiras posições) com os dígitos verificadores corretos."}',
          rate(5000, 5000),
        ),
      ],
      [
        lookup(tokens.bronze, ABSENT),
        json(
          '404 Not Found',
          '{"error":"not_found","message":"CNPJ não encontrado na base da Receita Federal carregada."}',
          rate(5000, 4999) + REGISTRY,
        ),
      ],
      [
        'GET /nada HTTP/1.1\r\nHost: x\r\n\r\n',
        json(
          '404 Not Found',
          '{"error":"not_found","message":"Rota não encontrada. Consulte a documentação em /docs."}',
        ),
      ],
      [
        lookup(undefined, SERPRO_FILIAL, 'POST'),
        json(
          '405 Method Not Allowed',
          '{"error":"method_not_allowed","message":"Método HTTP não permitido nesta rota."}',
          'Allow: GET, HEAD\n',
        ),
      ],
    ];
    for (const [request, expected] of cases)
      assert.equal(await answer(server.url, request), expected, request.split('\r\n')[0]);
  });

  test('a malformed request: 400 bad_request, connection closed', async () => {
    const body = '{"error":"bad_request","message":"Requisição HTTP malformada."}';
    assert.equal(
      await answer(server.url, 'GARBAGE\r\n\r\n'),
      `HTTP/1.1 400 Bad Request\nContent-Type: application/json; charset=utf-8\nContent-Length: ${Buffer.byteLength(body)}\nX-Content-Type-Options: nosniff\nConnection: close\n\n${body}`,
    );
  });

  test('beyond the bound of work in flight: 503 server_busy with Retry-After: 1', async () => {
    const busy = await serve(dataDir, { now: () => new Date(NOW), inFlight: { perConnection: 32, working: 0 } });
    try {
      const body =
        '{"error":"server_busy","message":"O servidor está com requisições demais em andamento. Tente novamente em alguns segundos."}';
      assert.equal(
        await answer(busy.url, lookup(tokens.bronze)),
        json('503 Service Unavailable', body, 'Retry-After: 1\n'),
      );
    } finally {
      await busy.close();
    }
  });
});
