// POST /api/v1/brazilian_companies/batch against a real imported month (imported.ts): answers in
// input order, duplicates, invalid and unknown items, exact counting (one call per distinct valid
// CNPJ), the atomic 429, body and media-type errors (none counted), and the time for 1,000.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { formatCnpj, makeCnpj } from '../../../src/domain/cnpj.ts';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { BatchResponseSchema, EstablishmentsPageSchema } from '../../../src/domain/company/list-schema.ts';
import { batchExample, establishmentsExample } from '../../../src/server/docs/examples.ts';
import { bearer, get, makeAccount, serve, withAppStore, type TestAccount, type TestServer } from '../helpers.ts';
import { ALNUM_CNPJS, SERPRO_CNPJS, importedDataDir } from './imported.ts';

const ABSENT = makeCnpj('99999999', '0001');
FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v));

describe('batch lookup', () => {
  let dataDir: string;
  let server: TestServer;
  let acct: TestAccount;
  const batchUrl = () => `${server.url}/api/v1/brazilian_companies/batch`;
  const post = (body: unknown, a: TestAccount = acct, type = 'application/json') =>
    get(batchUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));
  const used = (a: TestAccount) => withAppStore(dataDir, async (db) => (await currentUsage(db, a.accountId)).calls);

  before(async () => {
    dataDir = await importedDataDir();
    acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
    server = await serve(dataDir);
  });
  after(async () => {
    await server.close();
  });

  test('answers in input order: found, invalid (as sent), unknown, duplicates; one call per distinct valid CNPJ', async () => {
    const a = await makeAccount(dataDir, 'Ordem', { quota: 100 });
    const inputs = [
      formatCnpj(SERPRO_CNPJS[1]!),
      'nao-e-cnpj',
      ABSENT,
      SERPRO_CNPJS[0]!,
      ALNUM_CNPJS[2]!.toLowerCase(),
      SERPRO_CNPJS[1]!,
      '33683111000281',
      ABSENT,
    ];
    const r = await post({ cnpjs: inputs }, a);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), ['results']);
    const results = r.body.results;
    assert.deepEqual(
      results.map((x: { cnpj: string; status: number }) => [x.cnpj, x.status]),
      [
        [SERPRO_CNPJS[1], 200],
        ['nao-e-cnpj', 400],
        [ABSENT, 404],
        [SERPRO_CNPJS[0], 200],
        [ALNUM_CNPJS[2], 200],
        [SERPRO_CNPJS[1], 200],
        ['33683111000281', 400],
        [ABSENT, 404],
      ],
    );
    // 4 distinct valid CNPJs (3 found, 1 unknown): 4 calls, on disk when the answer arrives.
    assert.equal(remaining(r), 96);
    assert.equal(await used(a), 4);
    // Each item is what the lookup answers.
    for (const i of [0, 3, 4]) {
      const one = await get(`${server.url}/api/v1/brazilian_companies/${results[i].cnpj}/company`, bearer(a.token));
      assert.deepEqual(results[i], { cnpj: results[i].cnpj, status: 200, data: one.body });
    }
    assert.deepEqual(results[5], results[0]);
    assert.deepEqual(results[1], {
      cnpj: 'nao-e-cnpj',
      status: 400,
      error: 'invalid_cnpj',
      message:
        'CNPJ inválido: informe 14 caracteres (letras ou números nas 12 primeiras posições) com os dígitos verificadores corretos.',
    });
    assert.deepEqual(results[2], {
      cnpj: ABSENT,
      status: 404,
      error: 'not_found',
      message: 'CNPJ não encontrado na base da Receita Federal carregada.',
    });
    assert.equal(r.headers.get('x-ratelimit-limit'), '100');
    assert.ok(Value.Check(BatchResponseSchema, r.body), 'the answer fits its documented schema');
    assert.ok(
      server.lines.some(
        (l) => / POST \/api\/v1\/brazilian_companies\/batch 200 /.test(l) && l.endsWith(`account=${a.accountId}`),
      ),
      'logged with its account',
    );
  });

  test('atomic: fewer calls left than distinct CNPJs → 429 with the quota headers, nothing answered, nothing counted', async () => {
    const a = await makeAccount(dataDir, 'Pouca', { quota: 5 });
    assert.equal(remaining(await post({ cnpjs: SERPRO_CNPJS.slice(0, 3) }, a)), 2);
    const r = await post({ cnpjs: [...SERPRO_CNPJS.slice(3, 6), 'x', SERPRO_CNPJS[3]] }, a);
    assert.equal(r.status, 429);
    assert.deepEqual(Object.keys(r.body), ['error', 'message']);
    assert.equal(r.body.error, 'quota_exceeded');
    assert.match(
      r.body.message,
      /^Este lote precisa de 3 consultas, mas restam 2 da cota mensal de 5 consultas da API; ela será renovada em \d\d\/\d\d\/\d{4}\.$/,
    );
    assert.equal(remaining(r), 2);
    assert.equal(r.headers.get('x-ratelimit-limit'), '5');
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
    assert.equal(await used(a), 3);
    // Two fit exactly (duplicates counted once); then only invalid ones: 429 as a lookup's 400 would be.
    const fit = await post({ cnpjs: [SERPRO_CNPJS[3], SERPRO_CNPJS[4], SERPRO_CNPJS[3]] }, a);
    assert.deepEqual([fit.status, remaining(fit)], [200, 0]);
    const none = await post({ cnpjs: ['x'] }, a);
    assert.deepEqual([none.status, none.body.error, remaining(none)], [429, 'quota_exceeded', 0]);
    assert.match(none.body.message, /^A cota mensal de 5 consultas/);
    assert.equal(await used(a), 5);
  });

  test('only invalid CNPJs: answered, nothing counted', async () => {
    const before = await used(acct);
    const r = await post({ cnpjs: ['1', '33683111000281'] });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.results.map((x: { status: number }) => x.status),
      [400, 400],
    );
    assert.equal(await used(acct), before);
  });

  test('body errors: 400 invalid_body naming the problem, 415, 413; none counted; token first', async () => {
    const before = await used(acct);
    const cases: [unknown, RegExp][] = [
      ['{"cnpjs": [', /não é um JSON válido/],
      ['', /está vazio/],
      [[SERPRO_CNPJS[0]], /deve ser um objeto JSON/],
      ['"33683111000280"', /deve ser um objeto JSON/],
      [{}, /Informe a lista "cnpjs"/],
      [{ cnpjs: SERPRO_CNPJS[0] }, /"cnpjs" deve ser uma lista/],
      [{ cnpjs: [] }, /^A lista "cnpjs" está vazia; envie de 1 a 1\.000 CNPJs\.$/],
      [
        { cnpjs: Array(1001).fill(SERPRO_CNPJS[0]) },
        /^A lista "cnpjs" tem 1\.001 itens; o limite é 1\.000 por lote\.$/,
      ],
      [{ cnpjs: [SERPRO_CNPJS[0], 33683111000280] }, /^O item 1 de "cnpjs" \(contando do 0\) não é um texto/],
      [{ cnpjs: [SERPRO_CNPJS[0]], limit: 5 }, /membro "limit"/],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_body'], JSON.stringify(body).slice(0, 80));
      assert.match(r.body.message, message);
      assert.ok(remaining(r) > 0, 'with the quota headers');
    }
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'application/vnd.api+json',
    ]) {
      const r = await post({ cnpjs: [SERPRO_CNPJS[0]] }, acct, type);
      assert.deepEqual([r.status, r.body.error], [415, 'unsupported_media_type'], type);
    }
    const noType = await get(batchUrl(), {
      method: 'POST',
      headers: { Authorization: `Bearer ${acct.token}` },
      body: new Uint8Array(Buffer.from('{"cnpjs":["1"]}')),
    });
    assert.equal(noType.status, 415);
    assert.equal((await post({ cnpjs: ['1'] }, acct, 'Application/JSON; charset="UTF-8"')).status, 200);
    assert.equal(await used(acct), before);
    const noToken = await get(batchUrl(), { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    assert.deepEqual([noToken.status, noToken.body.error], [401, 'missing_token']);
    // The route takes POST only.
    const getIt = await get(batchUrl(), bearer(acct.token));
    assert.deepEqual([getIt.status, getIt.headers.get('allow')], [405, 'POST']);
  });

  test('a body over 64 KB: 413 body_too_large and the connection closed, whether announced or streamed', async () => {
    const big = JSON.stringify({ cnpjs: Array(1000).fill(' '.repeat(60) + SERPRO_CNPJS[0]) });
    assert.ok(Buffer.byteLength(big) > 64 * 1024);
    const announced = await post(big);
    assert.deepEqual([announced.status, announced.body.error], [413, 'body_too_large']);
    assert.match(announced.body.message, /64 KB/);
    assert.equal(announced.headers.get('connection'), 'close');
    // Chunked, no Content-Length: counted as it arrives.
    const streamed = await new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = http.request(
        batchUrl(),
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${acct.token}`, 'Content-Type': 'application/json' },
          agent: false,
        },
        (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (d) => (body += d))
            .on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 8; i++) req.write(big.slice(i * 10_000, (i + 1) * 10_000));
      req.end(big.slice(80_000));
    });
    assert.equal(streamed.status, 413);
    assert.equal(JSON.parse(streamed.body).error, 'body_too_large');
    assert.equal(streamed.connection, 'close');
    // The server is fine afterwards.
    assert.equal((await post({ cnpjs: [SERPRO_CNPJS[0]] })).status, 200);
  });

  test('1,000 CNPJs (formatted, 993 distinct valid, most of them unknown): answered, counted, timed', async () => {
    const a = await makeAccount(dataDir, 'Mil', { quota: 5000 });
    const cnpjs = [
      ...SERPRO_CNPJS.map(formatCnpj),
      ...Array.from({ length: 986 }, (_, i) => formatCnpj(makeCnpj(String(50_000_000 + i), '0001'))),
      ...Array(7).fill('invalido'),
    ];
    assert.equal(cnpjs.length, 1000);
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const r = await post({ cnpjs }, a);
      times.push(performance.now() - t0);
      assert.equal(r.status, 200);
      assert.equal(r.body.results.length, 1000);
      assert.equal(remaining(r), 5000 - 993 * (i + 1));
    }
    assert.equal(await used(a), 3 * 993);
    console.log(
      `# batch of 1,000 (7 found, 986 unknown, 7 invalid) through HTTP: ${times.map((t) => t.toFixed(0)).join(', ')} ms`,
    );
  });

  test('/openapi.json and /docs cover the listing and the batch, with curl examples and examples that fit their schemas', async () => {
    assert.ok(Value.Check(BatchResponseSchema, batchExample()));
    assert.ok(Value.Check(EstablishmentsPageSchema, establishmentsExample()));
    const o = (await get(`${server.url}/openapi.json`)).body;
    const list = o.paths['/api/v1/brazilian_companies/{cnpj}/establishments'].get;
    assert.deepEqual(
      list.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required]),
      [
        ['cnpj', 'path', true],
        ['limit', 'query', false],
        ['cursor', 'query', false],
      ],
    );
    assert.deepEqual(list.parameters[1].schema, { minimum: 1, maximum: 100, default: 20, type: 'integer' });
    assert.match(
      list['x-codeSamples'][0].source,
      /^curl -H "Authorization: Bearer \$CNPJ_API_TOKEN" "http:\/\/.*\/establishments\?limit=20"$/,
    );
    assert.deepEqual(Object.keys(list.responses['400'].content['application/json'].examples), [
      'invalid_cnpj',
      'invalid_parameter',
      'bad_request',
    ]);
    assert.equal(
      list.responses['200'].content['application/json'].schema.$ref,
      '#/components/schemas/EstablishmentsPage',
    );
    const batch = o.paths['/api/v1/brazilian_companies/batch'].post;
    assert.deepEqual(Object.keys(batch.responses), ['200', '400', '401', '403', '413', '415', '429', '500', '503']);
    assert.equal(batch.requestBody.content['application/json'].schema.$ref, '#/components/schemas/BatchRequest');
    assert.equal(o.components.schemas.BatchRequest.properties.cnpjs.maxItems, 1000);
    assert.match(
      batch['x-codeSamples'][0].source,
      /^curl -X POST .*-H "Content-Type: application\/json" -d '\{"cnpjs":\[/,
    );
    // The lookup lists only its own errors.
    const lookup400 = o.paths['/api/v1/brazilian_companies/{cnpj}/company'].get.responses['400'];
    assert.deepEqual(Object.keys(lookup400.content['application/json'].examples), ['invalid_cnpj', 'bad_request']);
    const d = (await get(`${server.url}/docs`)).body.replace(/<wbr>/g, '');
    for (const s of [
      'id="estabelecimentos"',
      'id="lote"',
      '/establishments?limit=20',
      '/brazilian_companies/batch',
      'next_cursor',
      'invalid_body',
      'unsupported_media_type',
    ])
      assert.ok(d.includes(s), s);
  });
});
