// Published clients of the upstream services, unchanged, pointed at a real server by their base
// URL only (docs/compat.md "Moving a client"): brasilapi-js 1.0.5 (BrasilAPI; its axios instance
// takes a baseURL) and cnpj-ws 1.0.4 (ReceitaWS; its URL template is an instance property). No
// network beyond loopback.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { runImport } from '../../../importer/run.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';
import { makeAccount, serve, tempDataDir, type TestAccount, type TestServer } from '../helpers.ts';

const require = createRequire(import.meta.url);
const SERPRO = '33683111000280';

interface AxiosLike {
  defaults: { baseURL?: string; headers: { common: Record<string, string> } };
}
const brasilapi = require('brasilapi-js') as {
  cnpj: { getBy(cnpj: string): Promise<{ status: number; data: any }> };
  request: { instance: AxiosLike };
};
const CnpjWs = require('cnpj-ws') as new () => {
  urlApiCnpj: string;
  consultaCNPJ(args: { cnpj: string }): Promise<any>;
};

describe('published clients against this server', () => {
  let server: TestServer;
  let acct: TestAccount;
  const instance = brasilapi.request.instance;
  const saved = { baseURL: instance.defaults.baseURL, auth: instance.defaults.headers.common.Authorization };

  before(async () => {
    const dataDir = tempDataDir();
    await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09' });
    acct = await makeAccount(dataDir, 'Cliente', { quota: 100 });
    server = await serve(dataDir);
  });
  after(async () => {
    instance.defaults.baseURL = saved.baseURL;
    if (saved.auth === undefined) delete instance.defaults.headers.common.Authorization;
    else instance.defaults.headers.common.Authorization = saved.auth;
    await server.close();
  });

  test('brasilapi-js: cnpj.getBy with the token in the base URL', async () => {
    instance.defaults.baseURL = `${server.url}/t/${acct.token}/api`;
    const r = await brasilapi.cnpj.getBy('33.683.111/0002-80');
    assert.equal(r.status, 200);
    assert.equal(r.data.cnpj, SERPRO);
    assert.equal(r.data.razao_social, 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)');
    assert.equal(r.data.descricao_situacao_cadastral, 'ATIVA');
    assert.ok(Array.isArray(r.data.qsa) && r.data.qsa.length > 0);
  });

  test('brasilapi-js: the token in an Authorization header instead; errors reject as with BrasilAPI', async () => {
    instance.defaults.baseURL = `${server.url}/api`;
    instance.defaults.headers.common.Authorization = `Bearer ${acct.token}`;
    const r = await brasilapi.cnpj.getBy(SERPRO);
    assert.equal(r.status, 200);
    assert.equal(r.data.codigo_municipio_ibge, 5300108);
    await assert.rejects(brasilapi.cnpj.getBy('00000000000000'), (e: any) => {
      assert.equal(e.response.status, 404);
      assert.deepEqual(e.response.data, {
        message: 'CNPJ 00.000.000/0000-00 não encontrado.',
        type: 'not_found',
        name: 'NotFoundError',
      });
      return true;
    });
    await assert.rejects(brasilapi.cnpj.getBy('123'), (e: any) => e.response.status === 400);
    delete instance.defaults.headers.common.Authorization;
  });

  test('cnpj-ws (ReceitaWS): consultaCNPJ through /t/{token}/', async () => {
    const client = new CnpjWs();
    client.urlApiCnpj = `${server.url}/t/${acct.token}/v1/cnpj/{CNPJ}`;
    const ok = await client.consultaCNPJ({ cnpj: SERPRO });
    assert.equal(ok.status, 'OK');
    assert.equal(ok.cnpj, '33.683.111/0002-80');
    assert.match(ok.nome, /SERVICO FEDERAL DE PROCESSAMENTO DE DADOS/);
    const bad = await client.consultaCNPJ({ cnpj: '123' });
    assert.deepEqual(bad, { status: 'ERROR', message: 'CNPJ inválido' });
  });
});
