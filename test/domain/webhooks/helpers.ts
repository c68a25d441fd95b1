// Shared by the webhook tests: a data dir with app.db and an account, recorded history months,
// and a webhook receiver on loopback whose answers a test scripts.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { openAppDb, type AppDb } from '../../../src/storage/app-db.ts';
import { openHistoryDb, writeMonth } from '../../../src/storage/history/db.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

export interface Env {
  dataDir: string;
  app: AppDb;
  accountId: number;
  cleanup(): Promise<void>;
}

export async function makeEnv(): Promise<Env> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-'));
  const app = await openAppDb(dataDir);
  const accountId = (await createAccount(sqliteStore(app), { name: 'Acme', plan: 'Ouro' })).id;
  return {
    dataDir,
    app,
    accountId,
    async cleanup() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function watch(env: Env, cnpjs: string[]): void {
  const ins = env.app.sqlite.prepare(
    "INSERT INTO watchlist (account_id, cnpj, added_at) VALUES (?, ?, '2026-01-01T00:00:00Z')",
  );
  for (const c of cnpjs) ins.run(env.accountId, c);
}

/** Records `month` with a situacao_cadastral change for each CNPJ given. */
export function recordMonth(dataDir: string, month: string, cnpjs: string[]): void {
  const db = openHistoryDb(dataDir);
  try {
    writeMonth(db, month, 'prev', (insert) => {
      for (const c of cnpjs) insert(c, 'alteracao', 'situacao_cadastral', '"ATIVA"', '"INAPTA"');
      return { alteracao: cnpjs.length };
    });
  } finally {
    db.close();
  }
}

/** n distinct 14-digit CNPJs (not checked, the history does not care). */
export const cnpjs = (n: number, base = 10_000_000) =>
  Array.from({ length: n }, (_, i) => String(base + i).padStart(8, '0') + '000100');

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** How the receiver answers one request: a status, or 'hang' (never answers). */
export type Answer = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Called per request (0-based count); default 200. */
  answer: (n: number, r: Received) => Answer;
  /** Resolves when `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const r: Receiver = {
    url: '',
    received,
    answer,
    async waitFor(n, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${n} requests`);
        await new Promise((res) => setTimeout(res, 20));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((res) => server.close(res));
    },
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const got: Received = {
        id: String(req.headers['x-cnpj-api-delivery']),
        timestamp: String(req.headers['x-cnpj-api-timestamp']),
        signature: String(req.headers['x-cnpj-api-signature']),
        body,
      };
      const a = r.answer(received.length, got);
      received.push(got);
      if (a === 'hang') return void hanging.add(res);
      res.writeHead(a).end('ok');
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}

/** The receiver's check, as docs/webhooks.md shows it. */
export function verifies(secret: string, r: Received): boolean {
  const expected = 'sha256=' + createHmac('sha256', secret).update(`${r.timestamp}.${r.body}`).digest('hex');
  return expected === r.signature;
}
