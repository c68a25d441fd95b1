// End to end through the real program: `node bin/cnpj-api.js ...` on a temp data dir.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ApiAccess } from '../../src/domain/accounts/api-access.ts';
import { verifyLogin } from '../../src/domain/accounts/users.ts';
import { openAppDb } from '../../src/storage/app-db.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function cli(dataDir: string, args: string[], input = '', env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'cnpj-api.js'), '--data-dir', dataDir, ...args], {
    input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function fails(r: ReturnType<typeof cli>, re: RegExp) {
  assert.equal(r.code, 1, `expected exit 1: ${r.out} ${r.err}`);
  assert.equal(r.err.trim().split('\n').length, 1, `one line on stderr: ${r.err}`);
  assert.match(r.err, re);
  assert.doesNotMatch(r.err, /\n\s+at /);
}

test('operator CLI: accounts, users, tokens, plans, contacts', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-cli-'));
  try {
    let r = cli(dir, ['accounts', 'create', '--name', 'Acme Ltda', '--plan', 'ouro']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Acme Ltda.*Ouro/);
    fails(
      cli(dir, ['accounts', 'create', '--name', 'ACME LTDA', '--plan', 'Ouro']),
      /An account named "ACME LTDA" already exists/,
    );
    fails(cli(dir, ['accounts', 'create', '--name', 'Beta', '--plan', 'Platina']), /Plan "Platina" does not exist/);

    r = cli(
      dir,
      ['users', 'create', '--account', 'acme ltda', '--email', 'Ana@Acme.com.br', '--role', 'billing_admin'],
      'uma senha boa e longa\n',
    );
    assert.equal(r.code, 0, r.err);
    fails(
      cli(
        dir,
        ['users', 'create', '--account', 'Acme Ltda', '--email', 'b@acme.com.br', '--role', 'member'],
        'curta\n',
      ),
      /at least 10 characters/,
    );
    fails(
      cli(
        dir,
        ['users', 'create', '--account', 'Acme Ltda', '--email', 'b@acme.com.br', '--role', 'admin'],
        'uma senha boa e longa\n',
      ),
      /role/i,
    );

    r = cli(dir, ['tokens', 'create', '--account', 'Acme Ltda', '--name', 'produção', '--expires', '30d']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^cnpj_[0-9A-Za-z]{39}\n$/); // the token alone
    const token = r.out.trim();
    r = cli(dir, ['tokens', 'create', '--account', 'Acme Ltda', '--name', 'ci', '--json']);
    const created = JSON.parse(r.out) as { id: number; token: string };
    assert.deepEqual(Object.keys(created), ['id', 'token']);
    fails(
      cli(dir, ['tokens', 'create', '--account', 'Acme Ltda', '--name', 'x', '--expires', '2001-01-01']),
      /expiry date 2001-01-01 is in the past/,
    );
    fails(cli(dir, ['tokens', 'create', '--account', 'Nobody', '--name', 'x']), /Account "Nobody" does not exist/);

    r = cli(dir, ['tokens', 'deactivate', String(created.id)]);
    assert.equal(r.code, 0, r.err);
    fails(cli(dir, ['tokens', 'deactivate', 'abc']), /positive integer/);
    fails(cli(dir, ['tokens', 'activate', '999']), /Token 999 does not exist/);
    r = cli(dir, ['tokens', 'list', '--account', 'Acme Ltda', '--json']);
    const list = JSON.parse(r.out) as { id: number; name: string; state: string; displayPrefix: string }[];
    assert.deepEqual(
      list.map((t) => [t.name, t.state]),
      [
        ['produção', 'active'],
        ['ci', 'deactivated'],
      ],
    );
    assert.equal(list[0].displayPrefix, token.slice(0, 9));
    assert.ok(!r.out.includes(token), 'the secret is never listed');

    r = cli(dir, ['plans', 'set', 'Ouro', '--quota', '7', '--api', 'no']);
    assert.equal(r.code, 0, r.err);
    r = cli(dir, ['plans', 'list']);
    assert.match(r.out, /Ouro\s+7\s+no/);
    fails(cli(dir, ['plans', 'set', 'Ouro', '--api', 'maybe']), /--api must be yes or no/);

    const csv = path.join(dir, 'c.csv');
    fs.writeFileSync(csv, '33683111000280,website,site,https://x.com.br\n');
    assert.equal(cli(dir, ['contacts', 'load', csv]).code, 0);
    fs.writeFileSync(csv, '33683111000280,website,site,https://x.com.br\n1234,email,,a@b.c\n');
    fails(cli(dir, ['contacts', 'load', csv]), /Line 2 .*invalid CNPJ/);

    r = cli(dir, ['accounts', 'suspend', 'Acme Ltda']);
    assert.match(r.out, /2 token\(s\) invalidated/);
    fails(cli(dir, ['tokens', 'activate', String(created.id)]), /invalidated by the account's suspension/);
    r = cli(dir, ['accounts', 'list']);
    assert.match(r.out, /Acme Ltda\s+Ouro\s+suspended\s+0\/7/);
    assert.equal(cli(dir, ['accounts', 'reactivate', 'Acme Ltda']).code, 0);

    fails(cli(dir, ['tokens']), /subcommand/);
    fails(cli(dir, ['tokens', 'list']), /Missing required argument: account/);
    for (const args of [
      ['users', 'create'],
      ['tokens', 'create'],
    ]) {
      r = cli(dir, [...args, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.out, /--data-dir/);
    }

    // What the CLI wrote is what the API and the web app read.
    const app = await openAppDb(dir);
    try {
      const auth = new ApiAccess(app.sqlite).authenticate(token);
      assert.equal(auth.ok ? 'ok' : auth.error, 'account_suspended');
      assert.ok(await verifyLogin(app.sqlite, 'ana@acme.com.br', 'uma senha boa e longa'));
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('operator text is English, also on a machine with a Portuguese locale', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-cli-'));
  try {
    const pt = { LANG: 'pt_BR.UTF-8', LC_ALL: 'pt_BR.UTF-8', LC_MESSAGES: 'pt_BR.UTF-8' };
    fails(cli(dir, [], '', pt), /^error: Give a command; see --help\.$/m);
    fails(cli(dir, ['tokens', 'list'], '', pt), /^error: Missing required argument: account$/m);
    fails(
      cli(dir, ['accounts', 'create', '--name', 'X', '--plan', 'Nenhum'], '', pt),
      /^error: Plan "Nenhum" does not exist \(plans: Bronze, Prata, Ouro, Diamante, Black\)\.$/m,
    );
    const help = cli(dir, ['--help'], '', pt);
    assert.match(help.out, /^Commands:$/m);
    assert.match(help.out, /Show help/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
