import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ABSENT,
  ALNUM,
  SERPRO_CONTACT_ROWS,
  SERPRO_EXPECTED,
  SERPRO_FILIAL,
  SERPRO_MATRIZ,
  fixture,
} from '../fixtures.ts';
import {
  bearer,
  get,
  loadContacts,
  makeAccount,
  publish,
  serve,
  tempDataDir,
  writeSnapshot,
  type TestAccount,
  type TestServer,
} from '../helpers.ts';

describe('lookup API', () => {
  let dataDir: string;
  let server: TestServer;
  let acct: TestAccount;
  const api = (cnpj: string) => `${server.url}/api/v1/brazilian_companies/${cnpj}/company`;

  before(async () => {
    dataDir = tempDataDir();
    const data = fixture();
    writeSnapshot(dataDir, 's1', data);
    await publish(dataDir, 's1', '2026-04', data);
    await loadContacts(dataDir, SERPRO_CONTACT_ROWS);
    acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
    server = await serve(dataDir, {
      extraRoutes: [
        // A failure's log line carries the path: a token in it is redacted there too.
        {
          method: 'GET',
          path: '/test/throws/:x',
          handler: () => {
            throw new Error('boom with the path in it');
          },
        },
      ],
    });
  });
  after(async () => {
    await server.close();
  });

  test('SERPRO filial: the full response, deep-equal', async () => {
    const r = await get(api(SERPRO_FILIAL), bearer(acct.token));
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(r.body, SERPRO_EXPECTED);
    // Key order of docs/api-response.md, regime fields before the documented extras.
    assert.deepEqual(Object.keys(r.body.company).slice(0, 5), [
      'cnpj',
      'cnpj_pretty',
      'razao_social',
      'nome_fantasia',
      'situacao_cadastral',
    ]);
  });

  test('extra contacts loaded while the server runs show up on the next lookup, and go away', async () => {
    const before = await get(api(SERPRO_MATRIZ), bearer(acct.token));
    assert.deepEqual(before.body.contatos_extras, []);
    const row = {
      cnpj: SERPRO_MATRIZ,
      tipo_contato: 'website',
      tipo_website: 'institucional',
      contato: 'https://matriz.example',
    };
    // Through another connection, as `cnpj-api contacts load` does.
    await loadContacts(dataDir, [...SERPRO_CONTACT_ROWS, row]);
    const added = await get(api(SERPRO_MATRIZ), bearer(acct.token));
    assert.deepEqual(added.body.contatos_extras, [
      { tipo_contato: 'website', tipo_website: 'institucional', contato: 'https://matriz.example' },
    ]);
    assert.equal(added.body.company.has_website, true);
    await loadContacts(dataDir, SERPRO_CONTACT_ROWS);
    const removed = await get(api(SERPRO_MATRIZ), bearer(acct.token));
    assert.deepEqual(removed.body.contatos_extras, []);
    assert.equal(removed.body.company.has_website, false);
    assert.deepEqual((await get(api(SERPRO_FILIAL), bearer(acct.token))).body, SERPRO_EXPECTED);
  });

  test('regime: by base, latest year, the exact CNPJ row wins within the year', async () => {
    const m = await get(api(SERPRO_MATRIZ), bearer(acct.token));
    assert.equal(m.status, 200);
    assert.equal(m.body.company.matriz_filial, 'MATRIZ');
    assert.equal(m.body.company.regime_tributario, 'IMUNE DO IRPJ');
    assert.equal(m.body.company.ano_regime_tributario, 2018);
    assert.equal(m.body.company.escrituracoes_regime_tributario, 3);
    // Same partners on every establishment of the base; contacts are per CNPJ.
    assert.deepEqual(m.body.socios, SERPRO_EXPECTED.socios);
    assert.deepEqual(m.body.contatos_extras, []);
    assert.equal(m.body.company.has_website, false);
  });

  test('sparse record: empty strings, nulls, [] and omitted regime fields; alphanumeric CNPJ', async () => {
    const r = await get(api(ALNUM.toLowerCase()), bearer(acct.token));
    assert.equal(r.status, 200);
    const c = r.body.company;
    assert.equal(c.cnpj, ALNUM);
    assert.equal(c.cnpj_pretty, '12.ABC.345/01DE-35');
    assert.equal(c.razao_social, 'EMPRESA ALFANUMERICA LTDA');
    assert.equal(c.situacao_cadastral, 'BAIXADA');
    assert.equal(c.data_situacao_cadastral, null);
    assert.equal(c.motivo_situacao_cadastral, '32');
    assert.equal(c.data_inicio_atividade, null);
    assert.equal(c.cnae_fiscal, '0111301');
    assert.equal(c.cnae_fiscal_human, '0111-3/01');
    assert.deepEqual(c.cnaes_secundarios, [9999999, 111301]);
    assert.equal(c.cnae_fiscal_human.length <= 100, true);
    assert.match(
      c.cnaes_secundarios_human,
      /^9999-9\/99 - Atividade de teste .* cem caracteres do campo humano; 0111-3\/01$/,
    );
    assert.equal(c.natureza_juridica, '9999');
    assert.equal(c.capital_social, '0.05');
    assert.equal(c.porte, '');
    assert.equal(c.cep, '01310100');
    assert.equal(c.municipio, '7107');
    assert.equal(c.ddd_1, '11');
    assert.equal(c.telefone_1, '33334444');
    assert.equal(c.email, 'Contato@Exemplo.com.br');
    assert.equal(c.has_email, true);
    assert.equal(c.opc_simples, '');
    assert.equal(c.opc_mei, '');
    assert.equal(c.nome_fantasia, '');
    assert.equal(c.situacao_especial, 'RECUPERACAO JUDICIAL');
    assert.equal(c.data_situacao_especial, '2025-01-02');
    for (const k of [
      'regime_tributario',
      'ano_regime_tributario',
      'escrituracoes_regime_tributario',
      'numero_funcionarios',
    ]) {
      assert.equal(k in c, false, k);
    }
    assert.deepEqual(r.body.socios, []);
    assert.deepEqual(r.body.contatos_extras, []);
  });

  test('both auth forms; Bearer wins over api_token', async () => {
    const q = await get(`${api(SERPRO_FILIAL)}?api_token=${acct.token}`);
    assert.equal(q.status, 200);
    const both = await get(`${api(SERPRO_FILIAL)}?api_token=cnpj_garbage`, bearer(acct.token));
    assert.equal(both.status, 200);
    const wrongHeader = await get(`${api(SERPRO_FILIAL)}?api_token=${acct.token}`, bearer('cnpj_garbage'));
    assert.equal(wrongHeader.status, 401);
    assert.equal(wrongHeader.body.error, 'invalid_token');
    const lower = await get(api(SERPRO_FILIAL), { headers: { authorization: `bearer ${acct.token}` } });
    assert.equal(lower.status, 200);
  });

  test('lookup URLs with a query string or an unusual shape: the same answers as through the router', async () => {
    const base = api(SERPRO_FILIAL);
    assert.equal((await get(`${base}?x=1&api_token=${acct.token}&y`)).status, 200);
    // A repeated api_token: the first one is the token.
    assert.equal((await get(`${base}?api_token=${acct.token}&api_token=cnpj_garbage`)).status, 200);
    assert.equal((await get(`${base}?api_token=cnpj_garbage&api_token=${acct.token}`)).status, 401);
    assert.equal((await get(`${base}?`, bearer(acct.token))).status, 200);
    assert.equal((await get(`${base}?api_token=${encodeURIComponent(acct.token)}`)).status, 200);
    // Shapes the fast match leaves to the router: a trailing slash, an empty CNPJ segment.
    const slash = await get(`${base}/`, bearer(acct.token));
    assert.equal(slash.status, 200);
    assert.equal(slash.body.company.cnpj, SERPRO_FILIAL);
    const empty = await get(`${server.url}/api/v1/brazilian_companies//company`, bearer(acct.token));
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error, 'invalid_cnpj');
  });

  test('rate-limit headers on every authenticated answer, counted only for 200/404', async () => {
    const a = await get(api(SERPRO_FILIAL), bearer(acct.token));
    const limit = Number(a.headers.get('x-ratelimit-limit'));
    const rem = Number(a.headers.get('x-ratelimit-remaining'));
    assert.equal(limit, 50000);
    assert.ok(Number(a.headers.get('x-ratelimit-reset')) > Date.now() / 1000);
    const bad = await get(api('33683111000281'), bearer(acct.token));
    assert.equal(bad.status, 400);
    assert.equal(Number(bad.headers.get('x-ratelimit-remaining')), rem); // not counted
    const nf = await get(api(ABSENT), bearer(acct.token));
    assert.equal(nf.status, 404);
    assert.equal(Number(nf.headers.get('x-ratelimit-remaining')), rem - 1); // counted
    const none = await get(api(SERPRO_FILIAL));
    assert.equal(none.headers.get('x-ratelimit-limit'), null);
  });

  test('the all-zero CNPJ is 400 invalid_cnpj and not counted, bare or punctuated', async () => {
    const rem = Number((await get(api(SERPRO_FILIAL), bearer(acct.token))).headers.get('x-ratelimit-remaining'));
    for (const input of ['00000000000000', '00.000.000%2F0000-00', '00.000.000/0000-00']) {
      const r = await get(api(input), bearer(acct.token));
      assert.equal(r.status, 400, input);
      assert.equal(r.body.error, 'invalid_cnpj', input);
      assert.equal(Number(r.headers.get('x-ratelimit-remaining')), rem, `${input}: not counted`);
    }
  });

  test('404 vs 400: check digits, length, letters in DV, punctuation', async () => {
    const cases: [string, number][] = [
      [ABSENT, 404],
      ['33683111000281', 400], // wrong check digit
      ['3368311100028', 400], // 13 digits
      ['336831110002800', 400], // 15 digits
      ['12ABC34501DE3A', 400], // letter in the check digits
      ['33.683.111%2F0002-80', 200], // punctuated, slash encoded
      ['33.683.111/0002-80', 200], // punctuated, raw slash
      ['33-683-111-0002-80', 200],
      ['%E0%A4%A', 400], // malformed percent-encoding
      ['%00%00', 400],
      ['x'.repeat(300), 400],
      ['12abc34501de35', 200], // lowercase
    ];
    for (const [input, status] of cases) {
      const r = await get(api(input), bearer(acct.token));
      assert.equal(r.status, status, input);
      if (status === 400) assert.deepEqual(Object.keys(r.body), ['error', 'message']);
      if (status === 400) assert.equal(r.body.error, 'invalid_cnpj', input);
      if (status === 404) assert.equal(r.body.error, 'not_found', input);
      if (status === 200) assert.ok(r.body.company.cnpj, input);
    }
  });

  test('invalid CNPJ without a token: the token is checked first (401)', async () => {
    const r = await get(api('123'));
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'missing_token');
  });

  test('unknown route 404, wrong method 405 with Allow', async () => {
    const r = await get(`${server.url}/api/v2/nothing`);
    assert.equal(r.status, 404);
    assert.equal(r.body.error, 'not_found');
    assert.equal(typeof r.body.message, 'string');
    const p = await get(api(SERPRO_FILIAL), { method: 'POST', ...bearer(acct.token) });
    assert.equal(p.status, 405);
    assert.equal(p.body.error, 'method_not_allowed');
    assert.match(p.headers.get('allow') ?? '', /GET/);
    const d = await get(`${server.url}/healthz`, { method: 'DELETE' });
    assert.equal(d.status, 405);
  });

  test('one log line per request, api_token redacted, account id', async () => {
    const before = server.lines.length;
    await get(`${api(SERPRO_FILIAL)}?x=1&api_token=${acct.token}&API%5Ftoken=${acct.token}`);
    await get(api(SERPRO_FILIAL), bearer(acct.token));
    await new Promise((r) => setTimeout(r, 50));
    const lines = server.lines.slice(before);
    assert.equal(lines.length, 2, lines.join('\n'));
    for (const l of lines) {
      assert.ok(!l.includes(acct.token), l);
      assert.match(l, / GET \/api\/v1\/brazilian_companies\/33683111000280\/company\S* 200 \d+\.\dms account=\d+$/);
      assert.ok(l.endsWith(`account=${acct.accountId}`));
    }
    assert.match(lines[0], /api_token=\[REDACTED\]&API%5Ftoken=\[REDACTED\]/);
    assert.ok(
      server.lines.every((l) => !l.includes(acct.token)),
      'no token anywhere in the log',
    );
  });

  test('a token is redacted by its shape wherever it stands in the target, in any encoding', async () => {
    const t = acct.token;
    const body = t.slice('cnpj_'.length);
    const encodeAll = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const targets = [
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company?api+token=${t}`,
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company;api_token=${t}`,
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company?x=1;api_token=${t}&y=2`,
      `/api/v1/brazilian_companies/${t}/company`,
      `/${t}`,
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company?q=Bearer%20${t}`,
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company?token=cnpj%5F${body}`,
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company?token=${encodeAll(t)}`,
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company?token=${t.slice(0, 9)}${encodeAll(body.slice(4, 20))}${body.slice(20)}`,
      `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company?token=%2563%256e%2570%256a%255f${body}`,
      `/x/prefix${t}suffix/${t.toUpperCase()}`,
      `/test/throws/${t}`,
    ];
    const before = server.lines.length;
    for (const target of targets) await get(`${server.url}${target}`);
    await new Promise((r) => setTimeout(r, 50));
    const logged = server.lines.slice(before);
    assert.ok(logged.length >= targets.length, logged.join('\n'));
    assert.ok(
      logged.some((l) => l.startsWith('error: GET /test/throws/[REDACTED]')),
      'the error line too',
    );
    // Decoded twice, no piece of the secret is left anywhere.
    const decode = (s: string) => s.replace(/%([0-9a-f]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16)));
    const text = decode(decode(logged.join('\n')));
    for (let i = 0; i + 10 <= body.length; i++) {
      assert.ok(
        !text.includes(body.slice(i, i + 10)) && !text.toUpperCase().includes(body.slice(i, i + 10).toUpperCase()),
        `secret piece ${i} in the log:\n${logged.join('\n')}`,
      );
    }
    assert.equal(logged.filter((l) => l.includes('[REDACTED]')).length, logged.length);
  });

  test('healthz, status, openapi.json, docs', async () => {
    const h = await get(`${server.url}/healthz`);
    assert.equal(h.status, 200);
    const s = await get(`${server.url}/api/v1/status`);
    assert.equal(s.status, 200);
    assert.equal(s.body.status, 'ok');
    assert.equal(s.body.registry.month, '2026-04');
    assert.equal(s.body.registry.id, 's1');
    assert.equal(s.body.registry.counts.establishments, 3);
    assert.equal(s.body.registry.schema_version, 1);
    const o = await get(`${server.url}/openapi.json`);
    assert.equal(o.status, 200);
    assert.equal(o.body.openapi, '3.1.0');
    const props = o.body.components.schemas.CompanyResponse.properties.company.properties;
    for (const k of Object.keys(SERPRO_EXPECTED.company)) assert.ok(props[k], `openapi documents ${k}`);
    assert.ok(o.body.paths['/api/v1/brazilian_companies/{cnpj}/company'].get.responses['429']);
    const d = await get(`${server.url}/docs`);
    assert.equal(d.status, 200);
    assert.match(d.headers.get('content-type') ?? '', /text\/html/);
    assert.match(d.body, /Gerenciar Tokens da API/);
    assert.match(d.body, /cnae_fiscal_human/);
    assert.match(d.body, /quota_exceeded/);
  });
});
