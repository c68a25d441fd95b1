// Child process for the concurrency and crash tests: its own connection to the same app.db.
// argv: dataDir token mode(count|forever) attempts [calls]
// count:   waits for <dataDir>/go, then calls charge() `attempts` times, one after the other (each
//          reserving `calls` calls, default 1); prints how many were granted.
// forever: charges until killed, writing the running granted count after each commit.
import fs from 'node:fs';
import path from 'node:path';
import { Meter } from '../../../../src/domain/metering/meter.ts';
import { SqliteMetering } from '../../../../src/storage/app/metering-sqlite.ts';
import { openAppSqlite } from '../../../../src/storage/app/sqlite.ts';

const [dataDir, token, mode, attemptsArg, callsArg = '1'] = process.argv.slice(2);
const sqlite = openAppSqlite(dataDir);
const access = new Meter(new SqliteMetering(sqlite));
const auth = await access.authenticate(token);
if (!auth.ok) {
  console.error(`authenticate failed: ${auth.error}`);
  process.exit(2);
}

if (mode === 'count') {
  fs.writeSync(1, 'ready\n');
  const go = path.join(dataDir, 'go');
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  while (!fs.existsSync(go)) Atomics.wait(sleeper, 0, 0, 2);
  let granted = 0;
  for (let i = 0; i < Number(attemptsArg); i++) if ((await access.charge(auth, Number(callsArg))).ok) granted++;
  fs.writeSync(1, `granted ${granted}\n`);
  sqlite.close();
} else {
  let granted = 0;
  for (;;) {
    if ((await access.charge(auth)).ok) fs.writeSync(1, `${++granted}\n`);
  }
}
