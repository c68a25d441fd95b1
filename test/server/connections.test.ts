// Connection bounds on a real server, with real sockets from several loopback addresses.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { defaultConnectionLimits, openFileLimit, PER_ADDRESS } from '../../src/server/http/connection-limits.ts';
import { serve, tempDataDir, type TestServer } from './helpers.ts';

const sockets: net.Socket[] = [];
after(() => sockets.forEach((s) => s.destroy()));

/** An idle connection from `from`, once connected (or refused). */
function open(url: string, from = '127.0.0.1'): Promise<net.Socket> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ port: Number(port), host: '127.0.0.1', localAddress: from }, () => resolve(s));
    s.on('error', () => resolve(s));
    sockets.push(s);
  });
}

/** Whether the server closes the connection within `ms` without a byte of answer. */
function closedAtOnce(s: net.Socket, ms = 1500): Promise<boolean> {
  if (s.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    s.once('data', () => resolve(false));
    s.once('close', () => resolve(true));
    setTimeout(() => resolve(false), ms);
  });
}

/** One GET /healthz on a fresh connection from `from`: the status, or 0 if the server refused it. */
async function health(url: string, from: string): Promise<number> {
  const s = await open(url, from);
  return new Promise((resolve) => {
    let answer = '';
    s.on('data', (d) => {
      answer += d;
      if (answer.includes('\r\n\r\n')) {
        resolve(Number(answer.slice(9, 12)));
        s.destroy();
      }
    });
    s.on('close', () => resolve(Number(answer.slice(9, 12)) || 0));
    if (!s.destroyed) s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  });
}

async function withServer(opts: Parameters<typeof serve>[1], fn: (s: TestServer) => Promise<void>): Promise<void> {
  const dataDir = tempDataDir();
  const server = await serve(dataDir, opts);
  try {
    await fn(server);
  } finally {
    for (const s of sockets.splice(0)) s.destroy();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('connection bounds', () => {
  test('one address cannot hold more than perAddress connections; other addresses still get in', async () => {
    // Before: every connection was accepted, and a single client could take every descriptor.
    await withServer({ connections: { perAddress: 5 } }, async ({ url }) => {
      const held = await Promise.all(Array.from({ length: 5 }, () => open(url)));
      for (const s of held) assert.equal(await closedAtOnce(s, 200), false, 'the first five stay open');
      assert.equal(await closedAtOnce(await open(url)), true, 'the sixth is closed at once');
      assert.equal(await health(url, '127.0.0.2'), 200, 'another address is served');
      held[0]!.destroy();
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await health(url, '127.0.0.1'), 200, 'a freed slot can be used again');
    });
  });

  test('no more than total connections in all, whatever the addresses', async () => {
    await withServer({ connections: { perAddress: 0, total: 6 } }, async ({ url }) => {
      const held = await Promise.all(Array.from({ length: 6 }, (_, i) => open(url, `127.0.0.${10 + i}`)));
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await closedAtOnce(await open(url, '127.0.0.99')), true, 'one more is closed at once');
      held[0]!.destroy();
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(await health(url, '127.0.0.99'), 200);
    });
  });

  test('defaults: per address off behind a trusted proxy; the total stays below the open-files limit', () => {
    assert.equal(defaultConnectionLimits(false).perAddress, PER_ADDRESS);
    assert.equal(defaultConnectionLimits(true).perAddress, 0);
    const limit = Number(execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim());
    assert.equal(openFileLimit(), limit);
    assert.ok(defaultConnectionLimits(false).total < limit);
    assert.equal(openFileLimit('/nonexistent'), 1024);
  });
});
