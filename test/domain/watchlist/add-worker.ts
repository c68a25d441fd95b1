// One process adding to a watchlist through its own store, for watchlist.test.ts: app.db in `dir`
// (its own connection), or, given a database URL, a node of its own on that PostgreSQL (its own
// data dir, its own pool). Prints "ready", waits for the file `go` in `dir`, then adds `count`
// CNPJs from `base` (one at a time, or as one list with `list`) and prints "added N" (the CNPJs
// this process added).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCnpj } from '../../../src/domain/cnpj.ts';
import { addWatched } from '../../../src/domain/watchlist/add.ts';
import { openAppStore } from '../../../src/storage/app/store.ts';

const [dir, accountId, mode, base, count, url] = process.argv.slice(2) as [
  string,
  string,
  'one' | 'list',
  string,
  string,
  string | undefined,
];
const own = url ? fs.mkdtempSync(path.join(os.tmpdir(), 'add-worker-')) : dir;
const app = await openAppStore(own, url);
const cnpjs = Array.from({ length: Number(count) }, (_, i) => makeCnpj(String(Number(base) + i), '0001'));
console.log('ready');
while (!fs.existsSync(path.join(dir, 'go'))) await new Promise((r) => setTimeout(r, 2));
let added = 0;
if (mode === 'list') {
  const r = await addWatched(app, Number(accountId), cnpjs, new Date());
  if (r.ok) added = [...r.rows.values()].filter((x) => x.added).length;
} else {
  for (const c of cnpjs) {
    const r = await addWatched(app, Number(accountId), [c], new Date());
    if (r.ok && r.rows.get(c)!.added) added++;
  }
}
console.log(`added ${added}`);
await app.close();
if (url) fs.rmSync(own, { recursive: true, force: true });
