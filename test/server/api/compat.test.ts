// The compat routes over HTTP on a real imported month (receita-mini): each shape's paths with
// the token in the header, in api_token and in the /t/{token}/ prefix; counting (200 and 404
// count, a refused CNPJ does not) with the native rate-limit headers; every refusal in the shape's
// envelope; CORS on every status and the preflights; the token never in the log; BrasilAPI's own
// end-to-end assertions (tests/cnpj-v1.test.js upstream); ReceitaWS's JSONP; the operator's
// tokenless switch.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { runImport } from '../../../importer/run.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';
import { makeAccount, serve, tempDataDir, type TestAccount, type TestServer } from '../helpers.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { withAppStore } from '../helpers.ts';

const SERPRO = '33683111000280';
/** In receita-mini's partner file, but with no establishment row: absent from the month. */
const OKBR = '19131243000197';
const ABSENT = makeCnpj('99999999', '0001');
/** A well-formed CNPJ with wrong check digits. */
const WRONG_DV = `${SERPRO.slice(0, 12)}${SERPRO[12] === '9' ? '0' : '9'}${SERPRO[13]}`;

interface Shape {
  name: string;
  path: (cnpj: string) => string;
  /** The body of a 200 names the company this way. */
  company: (body: any) => string;
  invalid: { input: string; status: number; body: string };
  notFound: { status: number; body: (cnpj: string) => string };
  /** The envelope of one of our refusals: checks a parsed body. */
  refused: (body: any, code: string) => void;
  preflight: number;
}

const SHAPES: Shape[] = [
  {
    name: 'brasilapi',
    path: (c) => `/api/cnpj/v1/${c}`,
    company: (b) => b.razao_social,
    invalid: {
      input: '123',
      status: 400,
      body: '{"message":"CNPJ 123 inválido.","type":"bad_request","name":"BadRequestError"}',
    },
    notFound: {
      status: 404,
      body: (c) => `{"message":"CNPJ ${fmt(c)} não encontrado.","type":"not_found","name":"NotFoundError"}`,
    },
    refused: (b, code) => {
      assert.deepEqual(Object.keys(b), ['message', 'type', 'name']);
      assert.equal(b.type, code);
    },
    preflight: 204,
  },
  {
    name: 'minha-receita',
    path: (c) => `/minha-receita/${c}`,
    company: (b) => b.razao_social,
    invalid: { input: '123', status: 400, body: '{"message":"CNPJ 123 inválido."}' },
    notFound: { status: 404, body: (c) => `{"message":"CNPJ ${fmt(c)} não encontrado."}` },
    refused: (b) => assert.deepEqual(Object.keys(b), ['message']),
    preflight: 200,
  },
  {
    name: 'opencnpj',
    path: (c) => `/opencnpj/${c}`,
    company: (b) => b.razao_social,
    invalid: { input: '123', status: 400, body: '{"error":"invalid cnpj"}' },
    notFound: { status: 404, body: () => '{"error":"not found"}' },
    refused: (b) => assert.equal(typeof b.error, 'string'),
    preflight: 204,
  },
  {
    name: 'receitaws',
    path: (c) => `/v1/cnpj/${c}`,
    company: (b) => b.nome,
    invalid: { input: '123', status: 200, body: '{"status":"ERROR","message":"CNPJ inválido"}' },
    notFound: { status: 200, body: () => '{"status":"ERROR","message":"CNPJ rejeitado pela Receita Federal"}' },
    refused: (b) => {
      assert.equal(b.status, 'ERROR');
      assert.equal(typeof b.message, 'string');
    },
    preflight: 204,
  },
];

function fmt(c: string): string {
  return `${c.slice(0, 2)}.${c.slice(2, 5)}.${c.slice(5, 8)}/${c.slice(8, 12)}-${c.slice(12)}`;
}

describe('compat routes', () => {
  let dataDir: string;
  let server: TestServer;
  let acct: TestAccount;

  async function call(path: string, init: RequestInit = {}) {
    const res = await fetch(`${server.url}${path}`, init);
    return { status: res.status, headers: res.headers, text: await res.text() };
  }
  const auth = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));

  before(async () => {
    dataDir = tempDataDir();
    await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09' });
    acct = await makeAccount(dataDir, 'Cliente', { quota: 1000 });
    server = await serve(dataDir);
  });
  after(async () => {
    await server.close();
  });

  for (const shape of SHAPES) {
    describe(shape.name, () => {
      test('a 200 with the token in the header, in api_token and in /t/{token}/: the same body, each call counted', async () => {
        const a = await call(shape.path(SERPRO), auth(acct.token));
        assert.equal(a.status, 200, a.text);
        assert.match(shape.company(JSON.parse(a.text)), /SERVICO FEDERAL DE PROCESSAMENTO DE DADOS/);
        assert.equal(a.headers.get('access-control-allow-origin'), '*');
        assert.equal(a.headers.get('x-ratelimit-limit'), '1000');
        // Per token and counted: never kept by a shared cache for other clients.
        assert.doesNotMatch(a.headers.get('cache-control') ?? '', /public|s-maxage/);
        const b = await call(`${shape.path(SERPRO)}?api_token=${acct.token}`);
        const c = await call(`/t/${acct.token}${shape.path(SERPRO)}`);
        assert.equal(b.text, a.text);
        assert.equal(c.text, a.text);
        assert.equal(remaining(b), remaining(a) - 1);
        assert.equal(remaining(c), remaining(a) - 2);
        assert.equal(a.headers.get('content-length'), String(Buffer.byteLength(a.text)));
      });

      test("a CNPJ the month lacks: the upstream's not-found answer, counted", async () => {
        const before = remaining(await call(shape.path(OKBR), auth(acct.token)));
        const r = await call(shape.path(ABSENT), auth(acct.token));
        assert.equal(r.status, shape.notFound.status);
        assert.equal(r.text, shape.notFound.body(ABSENT));
        assert.equal(remaining(r), before - 1);
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
      });

      test("a malformed CNPJ: the upstream's refusal, not counted, with the quota headers", async () => {
        const before = remaining(await call(shape.path(OKBR), auth(acct.token)));
        const r = await call(shape.path(shape.invalid.input), auth(acct.token));
        assert.equal(r.status, shape.invalid.status);
        assert.equal(r.text, shape.invalid.body);
        assert.equal(remaining(r), before);
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
      });

      test('no token, a wrong token, a wrong token in /t/ even beside a good header: 401 in the envelope', async () => {
        for (const [r, code] of [
          [await call(shape.path(SERPRO)), 'missing_token'],
          [await call(shape.path(SERPRO), auth('cnpj_live_wrong')), 'invalid_token'],
          [await call(`/t/nottherighttoken${shape.path(SERPRO)}`, auth(acct.token)), 'invalid_token'],
        ] as const) {
          assert.equal(r.status, 401, r.text);
          shape.refused(JSON.parse(r.text), code);
          assert.equal(r.headers.get('access-control-allow-origin'), '*');
        }
        assert.ok(!server.lines.some((l) => l.includes('nottherighttoken')), 'the /t/ segment is redacted');
        assert.ok(!server.lines.some((l) => l.includes(acct.token)), 'no token in the log');
      });

      test('a preflight answers as the upstream does, allowing Authorization', async () => {
        const r = await call(shape.path(SERPRO), {
          method: 'OPTIONS',
          headers: {
            Origin: 'https://app.example',
            'Access-Control-Request-Method': 'GET',
            'Access-Control-Request-Headers': 'Authorization, Content-Type',
          },
        });
        assert.equal(r.status, shape.preflight);
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
        assert.match(r.headers.get('access-control-allow-headers') ?? '', /Authorization/);
        assert.match(r.headers.get('access-control-allow-methods') ?? '', /GET/);
      });

      test('another method, and an unknown path under the prefix: the envelope', async () => {
        const post = await call(shape.path(SERPRO), { method: 'POST', ...auth(acct.token) });
        assert.equal(post.status, 405);
        assert.match(post.headers.get('allow') ?? '', /GET/);
        shape.refused(JSON.parse(post.text), 'method_not_allowed');
        const prefix = shape.path('x').slice(0, -1);
        const unknown = await call(`${prefix}${SERPRO}/more/segments/here`, auth(acct.token));
        assert.equal(unknown.status, 404);
        shape.refused(JSON.parse(unknown.text), 'not_found');
      });
    });
  }

  test("the masked form: Minha Receita's two segments, OpenCNPJ's one inner slash, encoded slashes", async () => {
    const plain = await call(`/minha-receita/${SERPRO}`, auth(acct.token));
    for (const path of [
      '/minha-receita/33.683.111/0002-80',
      '/minha-receita/33.683.111%2F0002-80',
      '/api/cnpj/v1/33.683.111%2F0002-80',
    ]) {
      const r = await call(path, auth(acct.token));
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      if (path.startsWith('/minha-receita')) assert.equal(r.text, plain.text);
    }
    const oc = await call('/opencnpj/33.683.111/0002-80', auth(acct.token));
    assert.equal(oc.status, 200, oc.text);
  });

  test("upstream-valid CNPJs this project refuses (fourteen zeros, a wrong check digit): the upstream's 404, not counted", async () => {
    const before = remaining(await call(`/minha-receita/${OKBR}`, auth(acct.token)));
    const zeros = await call('/minha-receita/00000000000000', auth(acct.token));
    assert.equal(zeros.status, 404);
    assert.equal(zeros.text, '{"message":"CNPJ 00.000.000/0000-00 não encontrado."}');
    const dv = await call(`/opencnpj/${WRONG_DV}`, auth(acct.token));
    assert.equal(dv.status, 404);
    assert.equal(dv.text, '{"error":"not found"}');
    assert.equal(remaining(dv), before);
  });

  // Upstream asks for Open Knowledge Brasil, whose establishment row Minha Receita's testdata (our
  // receita-mini) does not carry: SERPRO's branch stands in for it.
  test("BrasilAPI's own end-to-end assertions (tests/cnpj-v1.test.js)", async () => {
    const ok = await call(`/api/cnpj/v1/${SERPRO}`, {
      headers: { Authorization: `Bearer ${acct.token}`, Origin: 'x' },
    });
    assert.equal(ok.status, 200);
    assert.equal(JSON.parse(ok.text).razao_social, 'SERVICO FEDERAL DE PROCESSAMENTO DE DADOS (SERPRO)');
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    const zeros = await call('/api/cnpj/v1/00000000000000', auth(acct.token));
    assert.equal(zeros.status, 404);
    assert.deepEqual(JSON.parse(zeros.text), {
      message: 'CNPJ 00.000.000/0000-00 não encontrado.',
      type: 'not_found',
      name: 'NotFoundError',
    });
    const short = await call('/api/cnpj/v1/123', auth(acct.token));
    assert.equal(short.status, 400);
    assert.deepEqual(JSON.parse(short.text), {
      message: 'CNPJ 123 inválido.',
      type: 'bad_request',
      name: 'BadRequestError',
    });
    const pre = await call(`/api/cnpj/v1/${SERPRO}`, {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Headers': 'Content-Type, Authorization', Origin: 'x' },
    });
    assert.equal(pre.status, 204);
    for (const m of ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'])
      assert.ok(pre.headers.get('access-control-allow-methods')!.split(',').includes(m), m);
    assert.match(pre.headers.get('access-control-allow-headers')!, /Content-Type/);
    assert.match(pre.headers.get('access-control-allow-headers')!, /Authorization/);
  });

  test('ReceitaWS: JSONP through ?callback= for every answer, the /days/{n} suffix, a hostile callback refused', async () => {
    const r = await call(`/t/${acct.token}/v1/cnpj/${SERPRO}?callback=handleResponse`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/javascript/);
    const m = /^\/\*\*\/ typeof handleResponse === 'function' && handleResponse\(([\s\S]*)\);$/.exec(r.text);
    assert.ok(m, r.text.slice(0, 100));
    assert.equal(JSON.parse(m[1]!).status, 'OK');
    const err = await call(`/t/${acct.token}/v1/cnpj/123?callback=cb`);
    assert.equal(err.status, 200);
    assert.match(err.text, /cb\(\{"status":"ERROR","message":"CNPJ inválido"\}\);$/);
    const days = await call(`/v1/cnpj/${SERPRO}/days/30`, auth(acct.token));
    assert.equal(days.status, 200);
    assert.equal(JSON.parse(days.text).nome, JSON.parse(m[1]!).nome);
    const hostile = await call(`/t/${acct.token}/v1/cnpj/${SERPRO}?callback=${encodeURIComponent('alert(1);x')}`);
    assert.ok(!hostile.text.includes('alert(1);'), hostile.text.slice(0, 80));
  });

  test('a quota used up: 429 in each envelope with Retry-After, and a refused CNPJ answers 429 too', async () => {
    const small = await makeAccount(dataDir, 'Pequeno', { quota: 1 });
    const first = await call(`/minha-receita/${SERPRO}`, auth(small.token));
    assert.equal(first.status, 200);
    for (const shape of SHAPES) {
      for (const cnpj of [SERPRO, shape.invalid.input]) {
        const r = await call(shape.path(cnpj), auth(small.token));
        assert.equal(r.status, 429, `${shape.name} ${cnpj}: ${r.text}`);
        shape.refused(JSON.parse(r.text), 'quota_exceeded');
        assert.ok(Number(r.headers.get('retry-after')) >= 1);
        assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
      }
    }
  });
});

describe('compat routes without a token (serve --compat-open-account)', () => {
  let dataDir: string;
  let server: TestServer;
  let open: TestAccount;
  let other: TestAccount;

  before(async () => {
    dataDir = tempDataDir();
    await runImport({ dataDir, inputs: [RECEITA_MINI], month: '2026-09' });
    open = await makeAccount(dataDir, 'Rede interna', { quota: 1000 });
    other = await makeAccount(dataDir, 'Outro', { quota: 1000 });
    server = await serve(dataDir, { compatOpen: { account: 'Rede interna', perMinute: 3 } });
  });
  after(async () => {
    await server.close();
  });

  const usage = (accountId: number) => withAppStore(dataDir, (app) => currentUsage(app, accountId));

  test('calls without a token are counted on the named account, at most N per minute per address; tokens still work', async () => {
    const u0 = await usage(open.accountId);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await fetch(`${server.url}/opencnpj/${SERPRO}`));
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 429],
    );
    const refused = answers[3]!;
    assert.deepEqual(await refused.json(), { error: 'address_rate_limited' });
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal((await usage(open.accountId)).calls, u0.calls + 3);
    // A token is counted on its own account, unbounded by the address window.
    const withToken = await fetch(`${server.url}/opencnpj/${SERPRO}`, {
      headers: { Authorization: `Bearer ${other.token}` },
    });
    assert.equal(withToken.status, 200);
    const wrong = await fetch(`${server.url}/t/wrongtoken/opencnpj/${SERPRO}`);
    assert.equal(wrong.status, 401);
    // The native API is not opened by the switch.
    const native = await fetch(`${server.url}/api/v1/brazilian_companies/${SERPRO}/company`);
    assert.equal(native.status, 401);
  });

  test('an account that does not exist stops the server from starting', async () => {
    await assert.rejects(
      serve(dataDir, { compatOpen: { account: 'Ninguém', perMinute: 3 } }),
      /--compat-open-account: no account named "Ninguém"/,
    );
  });
});
