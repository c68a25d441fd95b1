// Errors met before routing (node's 'clientError'), over raw sockets: malformed request lines
// and headers (400), headers over node's 16 KB (431), chunk extensions over 16 KB (413), a
// request that does not arrive in time (408). Each answers a complete HTTP/1.1 response with
// the JSON error body of docs/errors.md, Content-Length and Connection: close, then closes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { ERRORS } from '../../src/domain/api-errors.ts';
import { rawConnect, type RawResponse } from './raw-http.ts';
import { serve, tempDataDir, type TestServer } from './helpers.ts';

const PT = /[ãçéêíóõúà]/;

function assertRawError(r: RawResponse, status: number, error: string): void {
  assert.equal(r.status, status, JSON.stringify(r));
  assert.match(r.headers['content-type'] ?? '', /^application\/json; charset=utf-8$/);
  assert.equal(r.headers.connection, 'close');
  assert.equal(Number(r.headers['content-length']), Buffer.byteLength(r.body));
  const body = JSON.parse(r.body);
  assert.deepEqual(Object.keys(body), ['error', 'message']);
  assert.equal(body.error, error);
  assert.match(body.message, PT);
  const def = Object.values(ERRORS).find((e) => e.error === error);
  assert.equal(def?.status, status, 'the code is in the error table with this status');
}

describe('errors before routing are JSON', () => {
  let server: TestServer;
  const dataDir = tempDataDir();
  before(async () => {
    server = await serve(dataDir, {
      timeouts: { headers: 300, request: 1000, check: 50 },
      // A route that reads a request body (the chunked one is broken before its end).
      extraRoutes: [
        {
          method: 'POST',
          path: '/test/upload',
          handler: (req, res) => {
            req.on('error', () => {});
            req.resume();
            req.on('end', () => res.end());
          },
        },
      ],
    });
  });
  after(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends `data`, expects one error answer and the connection closed. */
  async function exchange(data: string | Buffer, status: number, error: string): Promise<void> {
    const c = await rawConnect(server.url);
    try {
      c.write(data);
      const [r] = await c.responses(1);
      assertRawError(r, status, error);
      assert.equal(await c.closed(), true, 'the server closes the connection');
    } finally {
      c.end();
    }
  }

  const cases: [string, string | Buffer, number, string][] = [
    ['malformed request line', 'HELLO THERE\r\n\r\n', 400, 'bad_request'],
    ['bad HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    ['a header line without a colon', 'GET /healthz HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n', 400, 'bad_request'],
    [
      'a control character in a header value',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'Content-Length and Transfer-Encoding together',
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc',
      400,
      'bad_request',
    ],
    [
      'headers over 16 KB',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    ['a request target over 16 KB', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'headers_too_large'],
    [
      'chunk extensions over 16 KB',
      `POST /test/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\nx\r\n0\r\n\r\n`,
      413,
      'request_too_large',
    ],
  ];
  for (const [name, data, status, error] of cases) {
    test(`${status} ${error}: ${name}`, () => exchange(data, status, error));
  }

  test('417 expectation_failed: an Expect other than 100-continue, JSON like every error', async () => {
    const c = await rawConnect(server.url);
    try {
      c.write('POST /login HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\nContent-Length: 3\r\n\r\n');
      const [r] = await c.responses(1, 3000);
      assert.equal(r.status, 417);
      assert.deepEqual(JSON.parse(r.body), { error: 'expectation_failed', message: ERRORS.expectation_failed.message });
      assert.equal(await c.closed(), true, 'the server closes the connection');
    } finally {
      c.end();
    }
  });

  test('408 request_timeout: headers that do not finish in time', async () => {
    const c = await rawConnect(server.url);
    try {
      c.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const [r] = await c.responses(1, 3000);
      assertRawError(r, 408, 'request_timeout');
      assert.equal(await c.closed(), true);
    } finally {
      c.end();
    }
  });

  test('after a good pipelined request, garbage: the good answer first, then the 400', async () => {
    const c = await rawConnect(server.url);
    try {
      c.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n');
      const [ok, bad] = await c.responses(2);
      assert.equal(ok.status, 200);
      assert.deepEqual(JSON.parse(ok.body), { status: 'ok' });
      assertRawError(bad, 400, 'bad_request');
      assert.equal(await c.closed(), true);
    } finally {
      c.end();
    }
  });

  test('the server keeps answering others', async () => {
    const c = await rawConnect(server.url);
    try {
      c.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      const [r] = await c.responses(1);
      assert.equal(r.status, 200);
      // The operator sees each one (without the request: it may carry a token).
      assert.ok(
        server.lines.some((l) => l === 'client error HPE_HEADER_OVERFLOW: answering 431'),
        server.lines.join('\n'),
      );
    } finally {
      c.end();
    }
  });
});
