import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { CLI } from '../helpers/cli.ts';

/** Runs `cnpj-api start` until its output matches `until`, returns the output and the process. */
async function startUntil(dataDir: string, until: RegExp, args: string[] = []) {
  const child = spawn(
    process.execPath,
    [CLI, 'start', '--port', '0', '--companies', '2000', '--data-dir', dataDir, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const deadline = Date.now() + 60_000;
  while (!until.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`start did not get ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { out, child };
}

test('first run (the README command): synthetic month, demo token, working curl line; second run just serves', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-start-'));
  const first = await startUntil(dataDir, /Web app login: .*\n/);
  try {
    assert.match(first.out, /SYNTHETIC months/);
    const curl =
      /curl -H "Authorization: Bearer (cnpj_\w+)" (http:\/\/127\.0\.0\.1:\d+\/api\/v1\/brazilian_companies\/(\w{14})\/company)/.exec(
        first.out,
      );
    assert.ok(curl, first.out);
    const res = await fetch(curl[2], { headers: { Authorization: `Bearer ${curl[1]}` } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { company: { cnpj: string } };
    assert.equal(body.company.cnpj, curl[3]);
    const status = (await (await fetch(new URL('/api/v1/status', curl[2]))).json()) as {
      registry: { synthetic: boolean };
    };
    assert.equal(status.registry.synthetic, true, 'synthetic data is labelled');
    // The second month was compared with the first: the change feed's curl line answers changes,
    // and the demo's watchlist holds some of the changed CNPJs.
    const feed =
      /curl -H "Authorization: Bearer cnpj_\w+" "(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/changes\?month=\d{4}-\d{2}&limit=5)"/.exec(
        first.out,
      );
    assert.ok(feed, first.out);
    const changes = (await (await fetch(feed[1], { headers: { Authorization: `Bearer ${curl[1]}` } })).json()) as {
      data: unknown[];
      next_cursor: string | null;
    };
    assert.equal(changes.data.length, 5);
    assert.ok(changes.next_cursor);
    const watched = (await (
      await fetch(new URL('/api/v1/watchlist', curl[2]), { headers: { Authorization: `Bearer ${curl[1]}` } })
    ).json()) as { total: number };
    assert.ok(watched.total > 0);
  } finally {
    first.child.kill('SIGTERM');
    await new Promise((r) => first.child.on('exit', r));
  }
  try {
    const second = await startUntil(dataDir, /serving on http/);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.on('exit', r));
    assert.doesNotMatch(second.out, /SYNTHETIC month|Demo API token/, 'an existing registry is just served');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('start --public-url: the demo curl line and the banner show the public URL', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-start-'));
  const run = await startUntil(dataDir, /Web app login: .*\n/, [
    '--public-url',
    'https://CNPJ.example.com/',
    '--trust-proxy',
  ]);
  try {
    assert.match(
      run.out,
      /serving on http:\/\/127\.0\.0\.1:\d+, public URL https:\/\/cnpj\.example\.com +\(API docs: https:\/\/cnpj\.example\.com\/docs, web app: https:\/\/cnpj\.example\.com\/login\)/,
    );
    assert.match(
      run.out,
      /curl -H "Authorization: Bearer cnpj_\w+" https:\/\/cnpj\.example\.com\/api\/v1\/brazilian_companies\/\w{14}\/company\n/,
    );
  } finally {
    run.child.kill('SIGTERM');
    await new Promise((r) => run.child.on('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
