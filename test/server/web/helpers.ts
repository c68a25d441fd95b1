// A real server (API + web app) on 127.0.0.1 with a temp data dir, plus a second app.db handle
// to seed accounts and read what the pages wrote.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccount } from '../../../src/domain/accounts/accounts.ts';
import { createUser, type UserRole } from '../../../src/domain/accounts/users.ts';
import { openAppDb, type AppDb } from '../../../src/storage/app/sqlite.ts';
import { startServer, type ServerOptions } from '../../../src/server/server.ts';
import { sqliteStore } from '../../helpers/sqlite-store.ts';

export interface TestServer {
  url: string;
  dataDir: string;
  app: AppDb;
  close(): Promise<void>;
}

export async function startTestServer(
  opts: Pick<ServerOptions, 'now' | 'publicUrl' | 'trustProxy' | 'log' | 'webhooks'> = {},
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-web-'));
  const server = await startServer({ dataDir, host: '127.0.0.1', port: 0, log: () => {}, ...opts });
  const app = await openAppDb(dataDir);
  return {
    url: server.url,
    dataDir,
    app,
    async close() {
      await server.close();
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const PASSWORD = 'senha-segura-123';

export async function seedAccount(app: AppDb, name: string, plan = 'Ouro') {
  const account = await createAccount(sqliteStore(app), { name, plan });
  const user = (email: string, role: UserRole) =>
    createUser(sqliteStore(app), { accountId: account.id, email, password: PASSWORD, role });
  return { account, user };
}

/** Calls on each day 1..lastDay of a month ('YYYY-MM') for one token, and the month's total. */
export function seedUsage(
  app: AppDb,
  opts: { accountId: number; tokenId: number; month: string; lastDay: number; calls: (day: number) => number },
): void {
  let total = 0;
  for (let d = 1; d <= opts.lastDay; d++) {
    const calls = opts.calls(d);
    total += calls;
    app.sqlite
      .prepare('INSERT INTO usage_daily (token_id, day, calls) VALUES (?, ?, ?)')
      .run(opts.tokenId, `${opts.month}-${String(d).padStart(2, '0')}`, calls);
  }
  app.sqlite
    .prepare('INSERT INTO usage_monthly (account_id, month, calls) VALUES (?, ?, ?)')
    .run(opts.accountId, opts.month, total);
}
