// One process adding to a watchlist through its own app.db connection, for watchlist.test.ts:
// prints "ready", waits for the file `go`, then adds `count` CNPJs from `base` (one at a time, or
// as one list with `list`) and prints "added N" (the CNPJs this process added).
import fs from 'node:fs';
import path from 'node:path';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { addWatched } from '../../../src/domain/watchlist/add.ts';
import { openAppSqlite } from '../../../src/storage/app-db.ts';

const [dir, accountId, mode, base, count] = process.argv.slice(2) as [string, string, 'one' | 'list', string, string];
const db = openAppSqlite(dir);
const cnpjs = Array.from({ length: Number(count) }, (_, i) => makeCnpj(String(Number(base) + i), '0001'));
console.log('ready');
while (!fs.existsSync(path.join(dir, 'go'))) await new Promise((r) => setTimeout(r, 2));
let added = 0;
if (mode === 'list') {
  const r = addWatched(db, Number(accountId), cnpjs, new Date());
  if (r.ok) added = [...r.rows.values()].filter((x) => x.added).length;
} else {
  for (const c of cnpjs) {
    const r = addWatched(db, Number(accountId), [c], new Date());
    if (r.ok && r.rows.get(c)!.added) added++;
  }
}
console.log(`added ${added}`);
db.close();
