// What every API answer says to a browser: never sniff a type; the HTML docs page, like the web
// app's pages, may not be framed and runs no script but ours.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { SERPRO_FILIAL, fixture } from './fixtures.ts';
import { makeAccount, publish, serve, tempDataDir, writeSnapshot, type TestServer } from './helpers.ts';

let dataDir: string;
let server: TestServer;
let token: string;

before(async () => {
  dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's1', data);
  await publish(dataDir, 's1', '2026-04', data);
  token = (await makeAccount(dataDir, 'Cliente')).token;
  server = await serve(dataDir);
});
after(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('every API answer carries X-Content-Type-Options: nosniff', async () => {
  const lookup = `/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;
  const cases: [string, RequestInit, number][] = [
    [`${lookup}?api_token=${token}`, {}, 200],
    [lookup, {}, 401],
    ['/api/v1/brazilian_companies/123/company', { headers: { Authorization: `Bearer ${token}` } }, 400],
    ['/nada', {}, 404],
    ['/api/v1/status', { method: 'DELETE' }, 405],
    ['/healthz', {}, 200],
    ['/api/v1/status', {}, 200],
    ['/openapi.json', {}, 200],
    ['/docs', {}, 200],
  ];
  for (const [path, init, status] of cases) {
    const r = await fetch(server.url + path, init);
    await r.arrayBuffer();
    assert.equal(r.status, status, path);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff', `${init.method ?? 'GET'} ${path}`);
  }
});

test('/docs: no framing, no script or style but our own files', async () => {
  const r = await fetch(`${server.url}/docs`);
  const body = await r.text();
  assert.equal(r.headers.get('x-frame-options'), 'DENY');
  const csp = r.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self'/);
  // The page works under that policy: its stylesheet is a file, nothing inline.
  assert.match(body, /<link rel="stylesheet" href="\/static\/style-[0-9a-f]+\.css">/);
  assert.doesNotMatch(body, /<style|\sstyle=|<script(?![^>]*\ssrc=)/);
});
