// Manual benchmark (not a test): the API's access hot path in-process, on a real app.db in a temp
// dir, set up as the server does (synchronous=NORMAL, WalSync). Prints µs of wall and of CPU time
// per call; the CPU figure is the one to compare (fdatasync runs off the event loop).
//   node --import tsx test/domain/accounts/helpers/bench-access.ts [calls] [per-turn]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccount } from '../../../../src/domain/accounts/accounts.ts';
import { Meter } from '../../../../src/domain/metering/meter.ts';
import { SqliteMetering } from '../../../../src/storage/app/metering-sqlite.ts';
import { createToken } from '../../../../src/domain/accounts/tokens.ts';
import { openAppDb, openAppSqlite } from '../../../../src/storage/app/sqlite.ts';
import { WalSync } from '../../../../src/storage/app/wal-sync.ts';
import { sqliteStore } from '../../../helpers/sqlite-store.ts';

const N = Number(process.argv[2] ?? 100_000);
/** Calls per event-loop turn: about the connections in flight on one server process under load. */
const TURN = Number(process.argv[3] ?? 32);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-bench-'));
const app = await openAppDb(dir);
const acc = await createAccount(sqliteStore(app), { name: 'Bench', plan: 'Black' });
const { token } = await createToken(sqliteStore(app), { accountId: acc.id, name: 'b', createdBy: 'cli' });
app.sqlite.prepare('UPDATE plans SET monthly_quota = ? WHERE name = ?').run(1e12, 'Black');
const conn = openAppSqlite(dir);
conn.pragma('synchronous = NORMAL');
const walSync = new WalSync(path.join(dir, 'app.db-wal'));
const access = new Meter(new SqliteMetering(conn, walSync));

/** Runs fn `times` times after a warm-up; each run is `calls` calls. */
async function time(label: string, times: number, calls: number, fn: () => Promise<void> | void): Promise<void> {
  for (let i = 0; i < Math.min(times / 10, 2000); i++) await fn();
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < times; i++) await fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e3;
  const cpu = process.cpuUsage(cpu0);
  const perCall = (us: number) => (us / (times * calls)).toFixed(2).padStart(8);
  console.log(`${label.padEnd(46)} wall ${perCall(wall)} µs   cpu ${perCall(cpu.user + cpu.system)} µs`);
}

await time('identifyForCount()', N, 1, async () => void (await access.identifyForCount(token)));
// The server's hot path: every call of a turn identified, then counted in one batch.
const one = async () => {
  const id = await access.identifyForCount(token);
  if (id.ok) await access.charge(id);
};
const turn = async () => {
  const calls: Promise<void>[] = [];
  for (let j = 0; j < TURN; j++) calls.push(one());
  await Promise.all(calls);
};
await time(`identifyForCount() + charge(), ${TURN} a turn`, Math.ceil(N / TURN), TURN, turn);
walSync.close();
conn.close();
await app.close();
fs.rmSync(dir, { recursive: true, force: true });
