// End to end through the real program: `node bin/cnpj-api.js ...` on a temp data dir.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sqliteMeter } from '../domain/metering/helpers/api-setup.ts';
import { verifyLogin } from '../../src/domain/accounts/users.ts';
import { requireAccount } from '../../src/domain/accounts/accounts.ts';
import { listTokens } from '../../src/domain/accounts/tokens.ts';
import { openNodeStore } from '../../src/storage/app/store.ts';
import { forBackends, freshDatabaseUrl, tempDataDir } from '../helpers/app-backends.ts';
import { CLI } from '../helpers/cli.ts';

function cli(dataDir: string, args: string[], input = '', env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, '--data-dir', dataDir, ...args], {
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

forBackends('operator CLI', ({ backend }) => {
  test('accounts, users, tokens, plans, contacts, each command a process of its own', async () => {
    const dir = tempDataDir('cnpj-cli-');
    // PostgreSQL: every invocation names the database, as each node of a fleet would.
    const url = backend === 'postgres' ? await freshDatabaseUrl() : undefined;
    const run = (args: string[], input = '') => cli(dir, url ? ['--database-url', url, ...args] : args, input);
    let r = run(['accounts', 'create', '--name', 'Acme Ltda', '--plan', 'ouro']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Acme Ltda.*Ouro/);
    fails(
      run(['accounts', 'create', '--name', 'ACME LTDA', '--plan', 'Ouro']),
      /An account named "ACME LTDA" already exists/,
    );
    fails(run(['accounts', 'create', '--name', 'Beta', '--plan', 'Platina']), /Plan "Platina" does not exist/);

    r = run(
      ['users', 'create', '--account', 'acme ltda', '--email', 'Ana@Acme.com.br', '--role', 'billing_admin'],
      'uma senha boa e longa\n',
    );
    assert.equal(r.code, 0, r.err);
    fails(
      run(['users', 'create', '--account', 'Acme Ltda', '--email', 'b@acme.com.br', '--role', 'member'], 'curta\n'),
      /at least 10 characters/,
    );
    fails(
      run(
        ['users', 'create', '--account', 'Acme Ltda', '--email', 'b@acme.com.br', '--role', 'admin'],
        'uma senha boa e longa\n',
      ),
      /role/i,
    );

    r = run(['tokens', 'create', '--account', 'Acme Ltda', '--name', 'produção', '--expires', '30d']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^cnpj_[0-9A-Za-z]{39}\n$/); // the token alone
    const token = r.out.trim();
    r = run(['tokens', 'create', '--account', 'Acme Ltda', '--name', 'ci', '--json']);
    const created = JSON.parse(r.out) as { id: number; token: string };
    assert.deepEqual(Object.keys(created), ['id', 'token']);
    fails(
      run(['tokens', 'create', '--account', 'Acme Ltda', '--name', 'x', '--expires', '2001-01-01']),
      /expiry date 2001-01-01 is in the past/,
    );
    fails(run(['tokens', 'create', '--account', 'Nobody', '--name', 'x']), /Account "Nobody" does not exist/);

    r = run(['tokens', 'deactivate', String(created.id)]);
    assert.equal(r.code, 0, r.err);
    fails(run(['tokens', 'deactivate', 'abc']), /positive integer/);
    fails(run(['tokens', 'activate', '999']), /Token 999 does not exist/);
    r = run(['tokens', 'list', '--account', 'Acme Ltda', '--json']);
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

    r = run(['plans', 'set', 'Ouro', '--quota', '7', '--api', 'no']);
    assert.equal(r.code, 0, r.err);
    r = run(['plans', 'list']);
    assert.match(r.out, /Ouro\s+7\s+no/);
    fails(run(['plans', 'set', 'Ouro', '--api', 'maybe']), /--api must be yes or no/);

    const csv = path.join(dir, 'c.csv');
    fs.writeFileSync(csv, '33683111000280,website,site,https://x.com.br\n');
    assert.equal(run(['contacts', 'load', csv]).code, 0);
    fs.writeFileSync(csv, '33683111000280,website,site,https://x.com.br\n1234,email,,a@b.c\n');
    fails(run(['contacts', 'load', csv]), /Line 2 .*invalid CNPJ/);

    r = run(['accounts', 'suspend', 'Acme Ltda']);
    assert.match(r.out, /2 token\(s\) invalidated/);
    fails(run(['tokens', 'activate', String(created.id)]), /invalidated by the account's suspension/);
    r = run(['accounts', 'list']);
    assert.match(r.out, /Acme Ltda\s+Ouro\s+suspended\s+0\/7/);
    assert.equal(run(['accounts', 'reactivate', 'Acme Ltda']).code, 0);

    fails(run(['tokens']), /subcommand/);
    fails(run(['tokens', 'list']), /Missing required argument: account/);
    for (const args of [
      ['users', 'create'],
      ['tokens', 'create'],
    ]) {
      r = run([...args, '--help']);
      assert.equal(r.code, 0);
      assert.match(r.out, /--data-dir/);
    }

    // What the CLI wrote is what the API and the web app read.
    const app = await openNodeStore(dir, url);
    try {
      assert.ok(await verifyLogin(app, 'ana@acme.com.br', 'uma senha boa e longa'));
      const acme = await requireAccount(app, 'acme ltda');
      assert.deepEqual(
        (await listTokens(app, acme.id)).map((t) => t.state),
        ['invalidated', 'invalidated'],
      );
      if (backend === 'sqlite') {
        const auth = await sqliteMeter(app.local.sqlite).authenticate(token);
        assert.equal(auth.ok ? 'ok' : auth.error, 'account_suspended');
      } else {
        // Nothing went to the node's own app.db.
        assert.equal(app.local.sqlite.prepare('SELECT count(*) FROM accounts').pluck().get(), 0);
      }
    } finally {
      await app.close();
    }
  });
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

test('fleet mode: operator commands run off the nodes open no app.db and leave the current folder empty', async () => {
  const url = await freshDatabaseUrl();
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-cli-empty-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.CNPJ_API_DATA_DIR;
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, [CLI, ...args, '--database-url', url], {
        cwd: empty,
        encoding: 'utf8',
        env,
      });
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };
    assert.match(run(['accounts', 'create', '--name', 'Acme', '--plan', 'Ouro']), /Acme/);
    assert.match(run(['accounts', 'list']), /Acme/);
    assert.match(run(['status']), /not a node: no app\.db/);
    assert.deepEqual(fs.readdirSync(empty), []);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});
