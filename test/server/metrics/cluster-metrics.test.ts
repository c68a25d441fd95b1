// `serve --workers 2 --metrics-port 0`: the primary's listener sums the workers' metrics. Two
// keep-alive connections are held, one on each worker (which worker owns a socket is read from
// /proc), so the test knows both served requests, and the sum must count every one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { test } from 'node:test';
import { SERPRO_FILIAL, fixture } from '../fixtures.ts';
import {
  childPids,
  killServe,
  makeAccount,
  publish,
  sleep,
  spawnServe,
  tempDataDir,
  writeSnapshot,
} from '../helpers.ts';
import { sampleValue } from './prometheus-text.ts';

const LOOKUP = '/api/v1/brazilian_companies/:cnpj/company';

/** The pid among `pids` holding the server side of the loopback connection serverPort ↔ clientPort. */
function socketOwner(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = row.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex(serverPort)}`) && f[2]?.endsWith(`:${hex(clientPort)}`)) inode = f[9];
    }
  }
  if (inode === undefined) return undefined;
  return pids.find((pid) => {
    try {
      const fds = fs.readdirSync(`/proc/${pid}/fd`);
      return fds.some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

/** One GET over `agent` (a single keep-alive socket): the status and the socket's local port. */
function getOver(agent: http.Agent, url: string, token: string): Promise<{ status: number; port: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
        // Read now: once the answer ends the socket goes back to the agent.
        const port = res.socket.localPort!;
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, port }));
      })
      .on('error', reject);
  });
}

test('serve --workers 2 --metrics-port: the primary serves the sum of both workers', async () => {
  const dataDir = tempDataDir();
  const data = fixture();
  writeSnapshot(dataDir, 's', data);
  await publish(dataDir, 's', '2026-04', data);
  const a = await makeAccount(dataDir, 'Cluster metricas');
  const server = await spawnServe(
    dataDir,
    ['--workers', '2', '--metrics-port', '0'],
    (pid) => childPids(pid).length === 2,
  );
  const agents: http.Agent[] = [];
  try {
    // The metrics line may follow the "serving on" one that spawnServe waits for.
    let metricsUrl: string | undefined;
    for (const until = Date.now() + 10_000; !metricsUrl && Date.now() < until; await sleep(25)) {
      metricsUrl = /metrics on (http:\/\/\S+)/.exec(server.stderr())?.[1];
    }
    assert.ok(metricsUrl, server.stderr());
    const workers = childPids(server.child.pid!);
    const serverPort = Number(new URL(server.url).port);
    const lookup = `${server.url}/api/v1/brazilian_companies/${SERPRO_FILIAL}/company`;

    // New connections until each worker holds one (the kernel picks; 40 tries is plenty).
    const byWorker = new Map<number, http.Agent>();
    let sent = 0;
    for (let i = 0; i < 40 && byWorker.size < 2; i++) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      const r = await getOver(agent, lookup, a.token);
      sent++;
      assert.equal(r.status, 200);
      const owner = socketOwner(serverPort, r.port, workers);
      if (owner !== undefined && !byWorker.has(owner)) byWorker.set(owner, agent);
    }
    assert.equal(byWorker.size, 2, 'both workers took a connection');
    for (const agent of byWorker.values())
      for (let i = 0; i < 5; i++) {
        assert.equal((await getOver(agent, lookup, a.token)).status, 200);
        sent++;
      }

    const text = await (await fetch(metricsUrl)).text();
    assert.equal(sampleValue(text, 'cnpj_api_http_requests_total', { route: LOOKUP, status: '200' }), sent);
    assert.equal(sampleValue(text, 'cnpj_api_group_commit_batch_size_sum'), sent);
    // Gauges are not summed: every worker serves the same month.
    assert.equal(sampleValue(text, 'cnpj_api_snapshot_month'), 202604);
    // The public port still has no /metrics.
    assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
  } finally {
    for (const agent of agents) agent.destroy();
    await killServe(server);
  }
});

test('serve --metrics-port 0 (one process): metrics on 127.0.0.1 by default, not on the public port', async () => {
  const dataDir = tempDataDir();
  const server = await spawnServe(dataDir, ['--metrics-port', '0']);
  try {
    // The metrics line may follow the "serving on" one that spawnServe waits for.
    let metricsUrl: string | undefined;
    for (const until = Date.now() + 10_000; !metricsUrl && Date.now() < until; await sleep(25)) {
      metricsUrl = /metrics on (http:\/\/\S+)/.exec(server.stderr())?.[1];
    }
    assert.match(metricsUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, server.stderr());
    assert.equal((await fetch(`${server.url}/readyz`)).status, 503);
    const text = await (await fetch(metricsUrl!)).text();
    // No snapshot yet: not ready, and the month gauge says so.
    assert.equal(sampleValue(text, 'cnpj_api_http_requests_total', { route: '/readyz', status: '503' }), 1);
    assert.equal(sampleValue(text, 'cnpj_api_snapshot_month'), 0);
    assert.equal((await fetch(`${server.url}/metrics`)).status, 404);
  } finally {
    await killServe(server);
  }
});
