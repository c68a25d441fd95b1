// What one server process takes on at once (src/server/http/in-flight.ts), with small bounds so each
// rule shows: a connection is no longer read once it holds its share, requests parsed past it
// wait unstarted and are all answered in order later, the process refuses beyond its bound with
// 503 server_busy, answers a client does not read are not work, a closed connection gives back
// what it held, and a connection that neither sends nor reads is closed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Route } from '../../src/server/http/router.ts';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import { rawConnect } from './raw-http.ts';
import {
  bearer,
  get,
  makeAccount,
  publish,
  serve,
  sleep,
  tempDataDir,
  withAppDb,
  writeSnapshot,
  type TestAccount,
  type TestServer,
} from './helpers.ts';

const PT = /[ãçéêíóõúà]/;

/** Test routes: /test/hang (answered by the test), /test/big (8 MB), /test/echo (the body). */
function routes(held: ServerResponse[], started: { n: number }): Route[] {
  return [
    {
      method: 'GET',
      path: '/test/hang',
      handler: (req, res) => {
        started.n++;
        res.setHeader('X-I', String(req.query.i));
        held.push(res);
      },
    },
    { method: 'GET', path: '/test/big', handler: (_req, res) => res.end(Buffer.alloc(8 << 20, 97)) },
    {
      method: 'POST',
      path: '/test/echo',
      handler: (req, res) => {
        let body = '';
        req.on('data', (d) => (body += d));
        req.on('end', () => res.end(body));
      },
    },
  ];
}

const hang = (i: number) => `GET /test/hang?i=${i} HTTP/1.1\r\nHost: x\r\n\r\n`;

describe('requests in flight', () => {
  let dataDir: string;
  let acct: TestAccount;
  before(async () => {
    dataDir = tempDataDir();
    const data = fixture();
    writeSnapshot(dataDir, 's1', data);
    await publish(dataDir, 's1', '2026-04', data);
    acct = await makeAccount(dataDir, 'Cliente', { plan: 'Ouro' });
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  describe('per connection', () => {
    let server: TestServer;
    const held: ServerResponse[] = [];
    const started = { n: 0 };
    before(async () => {
      server = await serve(dataDir, {
        inFlight: { perConnection: 4, working: 1000 },
        extraRoutes: routes(held, started),
      });
    });
    after(async () => {
      for (const r of held.splice(0)) r.end();
      await server.close();
    });

    test('50 pipelined requests: 4 worked on at a time, all answered in order', async () => {
      const c = await rawConnect(server.url);
      try {
        c.write(Array.from({ length: 50 }, (_, i) => hang(i)).join(''));
        await sleep(300);
        assert.equal(started.n, 4, 'only the connection share is started');
        const answers: string[] = [];
        while (answers.length < 50) {
          // Each batch answered lets the next one start (they were parsed, then waited).
          const batch = held.splice(0);
          assert.ok(batch.length > 0 && batch.length <= 4, `started at once: ${batch.length}`);
          for (const r of batch) r.end(`answer ${r.getHeader('X-I')}`);
          for (const r of await c.responses(batch.length)) answers.push(r.body);
          if (answers.length < 50) await waitUntil(() => held.length > 0);
        }
        assert.deepEqual(
          answers,
          Array.from({ length: 50 }, (_, i) => `answer ${i}`),
        );
      } finally {
        c.end();
      }
    });

    test('a request parsed while its connection is full still gets its body', async () => {
      const c = await rawConnect(server.url);
      try {
        c.write(hang(1) + hang(2) + hang(3) + hang(4));
        c.write('POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n');
        await waitUntil(() => held.length === 4);
        for (const r of held.splice(0)) r.end('ok');
        await sleep(100);
        c.write('hello');
        const answers = await c.responses(5);
        assert.deepEqual(
          answers.map((a) => a.body),
          ['ok', 'ok', 'ok', 'ok', 'hello'],
        );
      } finally {
        c.end();
      }
    });
  });

  describe('per process', () => {
    let server: TestServer;
    const held: ServerResponse[] = [];
    const started = { n: 0 };
    before(async () => {
      server = await serve(dataDir, {
        inFlight: { perConnection: 32, working: 3 },
        extraRoutes: routes(held, started),
      });
    });
    after(async () => {
      for (const r of held.splice(0)) r.end();
      await server.close();
    });

    test('beyond the bound: 503 server_busy with Retry-After, not counted; a closed connection frees its share', async () => {
      const busy = await rawConnect(server.url);
      busy.write(hang(1) + hang(2) + hang(3));
      await waitUntil(() => held.length === 3);
      const calls = () =>
        withAppDb(dataDir, (s) =>
          s
            .prepare('SELECT coalesce(sum(calls), 0) FROM usage_monthly WHERE account_id = ?')
            .pluck()
            .get(acct.accountId),
        );
      const before = await calls();

      const refused = await get(
        `${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`,
        bearer(acct.token),
      );
      assert.equal(refused.status, 503);
      assert.deepEqual(Object.keys(refused.body), ['error', 'message']);
      assert.equal(refused.body.error, 'server_busy');
      assert.match(refused.body.message, PT);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal((await get(`${server.url}/healthz`)).status, 503);
      assert.equal(await calls(), before, 'a refused lookup is not counted');

      busy.end();
      await waitUntil(async () => (await get(`${server.url}/healthz`)).status === 200);
      const ok = await get(`${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`, bearer(acct.token));
      assert.equal(ok.status, 200);
      held.splice(0);
    });

    test('answers a client does not read are not work: others are still served', async () => {
      // As many 8 MB answers as the bound to a socket that never reads: the kernel's buffers
      // (a few MB) fill, and every one of them waits.
      const sink = net.connect({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
      sink.on('error', () => {});
      await new Promise((r) => sink.once('connect', r));
      sink.pause();
      sink.write('GET /test/big HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3));
      await sleep(300);
      try {
        for (let i = 0; i < 5; i++) assert.equal((await get(`${server.url}/healthz`)).status, 200);
      } finally {
        sink.destroy();
      }
    });
  });

  test('a connection that neither sends nor reads for the idle timeout is closed', async () => {
    const held: ServerResponse[] = [];
    const server = await serve(dataDir, { timeouts: { idle: 300 }, extraRoutes: routes(held, { n: 0 }) });
    const c = await rawConnect(server.url);
    try {
      c.write(hang(1));
      assert.equal(await c.closed(3000), true);
    } finally {
      c.end();
      for (const r of held) r.end();
      await server.close();
    }
  });
});

async function waitUntil(cond: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}
