// Several OS processes, each with its own connection to the same app.db (as when the server
// runs as 2 processes): the quota is never exceeded and a killed process loses no counted call.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { setPlan } from '../../../src/domain/accounts/plans.ts';
import { createToken } from '../../../src/domain/accounts/tokens.ts';
import { currentUsage } from '../../../src/domain/accounts/usage.ts';
import { tempAppDb } from '../accounts/helpers/setup.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers', 'charge-worker.ts');

function startWorker(args: string[]): { child: ChildProcess; lines: string[]; onLine: (fn: () => void) => void } {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const listeners: (() => void)[] = [];
  let buf = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
    for (const l of listeners) l();
  });
  return { child, lines, onLine: (fn) => listeners.push(fn) };
}

const exited = (c: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    c.exitCode !== null || c.signalCode ? resolve(c.exitCode) : c.once('exit', (code) => resolve(code)),
  );

function until(w: ReturnType<typeof startWorker>, pred: () => boolean, what: string, ms = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (pred()) return resolve();
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    w.onLine(() => {
      if (pred()) {
        clearTimeout(timer);
        resolve();
      }
    });
    w.child.once('exit', () => (pred() ? resolve() : reject(new Error(`worker exited before ${what}`))));
  });
}

test('quota 30, 4 processes × 100 consume() at the same moment: exactly 30 granted', async () => {
  const { app, dir, cleanup } = await tempAppDb();
  try {
    await setPlan(sqliteStore(app), 'Tiny', { monthlyQuota: 30 });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Tiny' });
    const { token } = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const workers = Array.from({ length: 4 }, () => startWorker([dir, token, 'count', '100']));
    // Barrier: all four are connected and authenticated before anyone consumes.
    await Promise.all(workers.map((w) => until(w, () => w.lines.includes('ready'), 'ready')));
    fs.writeFileSync(path.join(dir, 'go'), '');
    await Promise.all(workers.map((w) => until(w, () => w.lines.some((l) => l.startsWith('granted')), 'result')));
    const counts = workers.map((w) => Number(w.lines.find((l) => l.startsWith('granted'))!.split(' ')[1]));
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      30,
      `per worker: ${counts.join(', ')}`,
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 30);
    const daily = app.sqlite.prepare('SELECT sum(calls) AS n FROM usage_daily').get() as { n: number };
    assert.equal(daily.n, 30);
    await Promise.all(workers.map((w) => exited(w.child)));
  } finally {
    await cleanup();
  }
});

test('quota 31, 4 processes × 30 batches of 4 calls at the same moment: exactly 7 batches granted, 28 calls', async () => {
  const { app, dir, cleanup } = await tempAppDb();
  try {
    await setPlan(sqliteStore(app), 'Tiny', { monthlyQuota: 31 });
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Tiny' });
    const { token } = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const workers = Array.from({ length: 4 }, () => startWorker([dir, token, 'count', '30', '4']));
    await Promise.all(workers.map((w) => until(w, () => w.lines.includes('ready'), 'ready')));
    fs.writeFileSync(path.join(dir, 'go'), '');
    await Promise.all(workers.map((w) => until(w, () => w.lines.some((l) => l.startsWith('granted')), 'result')));
    const counts = workers.map((w) => Number(w.lines.find((l) => l.startsWith('granted'))!.split(' ')[1]));
    // All or nothing: the 3 calls left over never go to a batch of 4.
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      7,
      `per worker: ${counts.join(', ')}`,
    );
    assert.equal((await currentUsage(sqliteStore(app), acc.id)).calls, 28);
    await Promise.all(workers.map((w) => exited(w.child)));
  } finally {
    await cleanup();
  }
});

test('a process SIGKILLed while consuming loses no counted call', async () => {
  const { app, dir, cleanup } = await tempAppDb();
  try {
    const acc = await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Black' });
    const { token } = await createToken(sqliteStore(app), { accountId: acc.id, name: 'a', createdBy: 'cli' });
    const w = startWorker([dir, token, 'forever']);
    await until(w, () => w.lines.length >= 150, '150 granted calls');
    w.child.kill('SIGKILL');
    await exited(w.child);
    // Every call the child saw granted was committed; at most one more (committed, not yet printed).
    const reported = Number(w.lines.at(-1));
    const calls = (await currentUsage(sqliteStore(app), acc.id)).calls;
    assert.ok(calls === reported || calls === reported + 1, `reported ${reported}, stored ${calls}`);
    // The monthly counter and the daily rows were written in the same transactions.
    const daily = app.sqlite.prepare('SELECT sum(calls) AS n FROM usage_daily').get() as { n: number };
    assert.equal(daily.n, calls);
    assert.equal(app.sqlite.pragma('integrity_check', { simple: true }), 'ok');
  } finally {
    await cleanup();
  }
});
