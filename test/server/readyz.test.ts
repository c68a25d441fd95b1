// GET /readyz: 200 only when this node can answer (a snapshot served, app.db answering), else the
// JSON 503 not_ready with Retry-After; no token, nothing counted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fixture } from './fixtures.ts';
import { get, publish, serve, sleep, tempDataDir, writeSnapshot } from './helpers.ts';

async function waitForStatus(url: string, status: number): Promise<Awaited<ReturnType<typeof get>>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await get(url);
    if (r.status === status || Date.now() > deadline) return r;
    await sleep(25);
  }
}

test('/readyz: 503 without a snapshot, 200 once one is served, 503 while app.db cannot be read', async () => {
  const dataDir = tempDataDir();
  const server = await serve(dataDir);
  try {
    const none = await get(`${server.url}/readyz`);
    assert.equal(none.status, 503);
    assert.deepEqual(none.body, {
      error: 'not_ready',
      message: 'Este servidor ainda não está pronto para atender consultas. Tente novamente em alguns segundos.',
      // Why, for the balancer's log and the operator.
      reason: 'no_snapshot',
    });
    assert.equal(none.headers.get('retry-after'), '5');
    assert.equal(none.headers.get('cache-control'), 'no-store');
    // /healthz says the process is up, whatever the data.
    assert.equal((await get(`${server.url}/healthz`)).status, 200);

    const data = fixture();
    writeSnapshot(dataDir, 's', data);
    await publish(dataDir, 's', '2026-04', data);
    const ready = await waitForStatus(`${server.url}/readyz`, 200);
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready' });
    assert.equal((await fetch(`${server.url}/readyz`, { method: 'HEAD' })).status, 200);

    // The data volume gone: the server's open connections still read, a fresh one cannot.
    const appDb = path.join(dataDir, 'app.db');
    fs.renameSync(appDb, `${appDb}.away`);
    try {
      const gone = await get(`${server.url}/readyz`);
      assert.equal(gone.status, 503);
      assert.equal(gone.body.error, 'not_ready');
      assert.equal(gone.body.reason, 'app_db');
      assert.equal(gone.headers.get('retry-after'), '5');
    } finally {
      fs.renameSync(`${appDb}.away`, appDb);
    }
    assert.equal((await get(`${server.url}/readyz`)).status, 200);
  } finally {
    await server.close();
  }
});
