// Manual benchmark (not a test): µs per authenticate() and per authenticate()+consume().
//   node --import tsx test/accounts/helpers/bench-access.ts [iterations]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccount } from '../../../../src/domain/accounts/accounts.ts';
import { ApiAccess } from '../../../../src/domain/accounts/api-access.ts';
import { createToken } from '../../../../src/domain/accounts/tokens.ts';
import { openAppDb } from '../../../../src/storage/app-db.ts';

const N = Number(process.argv[2] ?? 2000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-bench-'));
const app = await openAppDb(dir);
const acc = createAccount(app.sqlite, { name: 'Bench', plan: 'Black' });
const { token } = createToken(app.sqlite, { accountId: acc.id, name: 'b', createdBy: 'cli' });
const access = new ApiAccess(app.sqlite);

function time(label: string, fn: () => void): void {
  for (let i = 0; i < 200; i++) fn(); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn();
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / N;
  console.log(`${label.padEnd(44)} ${us.toFixed(1).padStart(8)} µs`);
}

time('authenticate()', () => void access.authenticate(token));
time('authenticate() + consume(), synchronous=FULL', () => {
  const g = access.authenticate(token);
  if (g.ok) access.consume(g);
});
{
  // 32 requests in flight per event-loop turn, as under load on one server process.
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N / 32; i++) {
    await Promise.all(Array.from({ length: 32 }, () => {
      const g = access.authenticate(token);
      return g.ok ? access.consumeGrouped(g) : g;
    }));
  }
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / N;
  console.log(`${'authenticate() + consumeGrouped() ×32, FULL'.padEnd(44)} ${us.toFixed(1).padStart(8)} µs`);
}
app.sqlite.pragma('synchronous = NORMAL');
time('authenticate() + consume(), synchronous=NORMAL', () => {
  const g = access.authenticate(token);
  if (g.ok) access.consume(g);
});
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
