// `cnpj-api probe`: the container image's health check. Exit 0 only on a 200 from /readyz; the
// not-ready reason, a refused connection and a server that never answers each exit 1 with one
// line saying why.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { fixture } from '../server/fixtures.ts';
import { publish, serve, tempDataDir, writeSnapshot } from '../server/helpers.ts';

test('probe: 1 with the reason while the server is not ready, 0 once it is; refused and silent servers fail', async () => {
  const dataDir = tempDataDir();
  const server = await serve(dataDir);
  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => sockets.push(s)); // accepts, never answers
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const port = new URL(server.url).port;
    const notYet = await runCli(['probe', '--port', port]);
    assert.equal(notYet.code, 1);
    assert.equal(notYet.err.trim(), `error: not ready: http://127.0.0.1:${port}/readyz answered 503 (no_snapshot)`);

    const data = fixture();
    writeSnapshot(dataDir, 's', data);
    await publish(dataDir, 's', '2026-04', data);
    let ready = await runCli(['probe', '--url', `${server.url}/readyz`]);
    for (let i = 0; i < 40 && ready.code !== 0; i++) ready = await runCli(['probe', '--url', `${server.url}/readyz`]);
    assert.equal(ready.code, 0, ready.err);
    assert.equal(ready.out.trim(), `ready: ${server.url}/readyz`);

    const silentPort = (silent.address() as net.AddressInfo).port;
    const started = Date.now();
    const hung = await runCli(['probe', '--port', String(silentPort), '--timeout', '0.5']);
    assert.equal(hung.code, 1);
    assert.equal(hung.err.trim(), `error: not ready: http://127.0.0.1:${silentPort}/readyz: no answer within 0.5 s`);
    assert.ok(Date.now() - started < 10_000, 'the timeout holds');
  } finally {
    await server.close();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
  const refused = await runCli(['probe', '--url', `${server.url}/readyz`]);
  assert.equal(refused.code, 1);
  assert.equal(refused.err.trim(), `error: not ready: ${server.url}/readyz: ECONNREFUSED`);
});

test('probe: bad flags are refused with one line', async () => {
  for (const [args, message] of [
    [['--url', 'ftp://example.com/readyz'], '--url: not an http(s) URL: ftp://example.com/readyz'],
    [['--url', 'nonsense'], '--url: not a URL: nonsense'],
    [['--timeout', '0'], '--timeout must be a number from 0.1 to 300, not "0"'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535, not "70000"'],
  ] as const) {
    const r = await runCli(['probe', ...args]);
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(r.err.trim(), `error: ${message}`);
  }
});
