import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { findNginx, startNginx, type NginxServer } from './nginx.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'nginx-root-'));
const servers: NginxServer[] = [];
after(async () => {
  for (const s of servers) await s.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

test('no nginx installed: a clear error naming the package, never a skip', () => {
  assert.throws(() => findNginx('/nonexistent/nginx'), /nginx is not installed.*"nginx" package/);
});

test('serves a folder read-only with ranges, lists nothing, and stop leaves nothing running', async (t) => {
  const bytes = crypto.randomBytes(100);
  fs.mkdirSync(path.join(root, 'releases', 'r1'), { recursive: true });
  fs.writeFileSync(path.join(root, 'releases', 'r1', 'data.bin'), bytes);

  const server = await startNginx(root);
  servers.push(server);
  t.diagnostic(`nginx listening after ${Math.round(server.startupMs)} ms`);
  const url = `${server.url}/releases/r1/data.bin`;

  const whole = await request(url);
  assert.equal(whole.statusCode, 200);
  assert.deepEqual(Buffer.from(await whole.body.arrayBuffer()), bytes);

  const ranged = await request(url, { headers: { range: 'bytes=10-19' } });
  assert.equal(ranged.statusCode, 206);
  assert.equal(ranged.headers['content-range'], 'bytes 10-19/100');
  assert.deepEqual(Buffer.from(await ranged.body.arrayBuffer()), bytes.subarray(10, 20));

  const missing = await request(`${server.url}/releases/r1/nope.bin`);
  await missing.body.dump();
  assert.equal(missing.statusCode, 404);

  const listing = await request(`${server.url}/releases/r1/`);
  await listing.body.dump();
  assert.equal(listing.statusCode, 403, 'autoindex off');

  const put = await request(url, { method: 'PUT', body: 'x' });
  await put.body.dump();
  assert.ok(put.statusCode === 403 || put.statusCode === 405, `PUT answered ${put.statusCode}`);
  assert.deepEqual(fs.readFileSync(path.join(root, 'releases', 'r1', 'data.bin')), bytes);

  const pid = Number(fs.readFileSync(path.join(server.dir, 'nginx.pid'), 'utf8'));
  await server.stop();
  assert.equal(fs.existsSync(server.dir), false, 'temp dir removed');
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'nginx is gone');
  const port = Number(new URL(server.url).port);
  const refused = await new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(true));
  });
  assert.ok(refused, 'nothing listens on the port any more');
  assert.ok(fs.existsSync(path.join(root, 'releases', 'r1', 'data.bin')), 'the folder served stays');
});
