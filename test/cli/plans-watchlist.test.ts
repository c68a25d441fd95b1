// `cnpj-api plans set --watchlist-limit N` and `plans list` through the real program.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { getPlan } from '../../src/domain/accounts/plans.ts';
import { openAppDb } from '../../src/storage/app/sqlite.ts';
import { sqliteStore } from '../helpers/sqlite-store.ts';
import { CLI } from '../helpers/cli.ts';

function cli(dataDir: string, args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--data-dir', dataDir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('plans set --watchlist-limit, plans list shows it, bad values refused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-cli-watchlist-'));
  try {
    let r = cli(dir, ['plans', 'list']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^PLAN\s+CALLS\/MONTH\s+API\s+WATCHLIST$/m);
    assert.match(r.out, /^Bronze\s+5000\s+yes\s+100$/m);
    assert.match(r.out, /^Black\s+500000\s+yes\s+50000$/m);

    r = cli(dir, ['plans', 'set', 'Bronze', '--watchlist-limit', '250']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.trim(), 'plan Bronze: 5000 calls/month, API included, watchlist 250 CNPJs');
    r = cli(dir, ['plans', 'set', 'Novo', '--quota', '10', '--watchlist-limit', '0']);
    assert.equal(r.code, 0, r.err);
    r = cli(dir, ['plans', 'list', '--json']);
    const plans = JSON.parse(r.out) as { name: string; watchlistLimit: number }[];
    assert.deepEqual(
      plans.filter((p) => p.name === 'Bronze' || p.name === 'Novo').map((p) => [p.name, p.watchlistLimit]),
      [
        ['Bronze', 250],
        ['Novo', 0],
      ],
    );

    for (const bad of ['-1', '1.5', 'lots']) {
      r = cli(dir, ['plans', 'set', 'Bronze', '--watchlist-limit', bad]);
      assert.equal(r.code, 1, `${bad}: ${r.out}`);
      assert.match(r.err, /watchlist-limit/);
    }
    r = cli(dir, ['plans', 'set', 'Bronze']);
    assert.equal(r.code, 1);
    assert.match(r.err, /--watchlist-limit/);

    const app = await openAppDb(dir);
    try {
      assert.equal((await getPlan(sqliteStore(app), 'Bronze'))!.watchlistLimit, 250);
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
