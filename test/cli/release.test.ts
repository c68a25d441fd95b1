// `cnpj-api release keygen` and `publish`, and `import --publish-to`, as an operator runs them:
// the key files, the refusals (one line, nothing done), and an import that publishes itself.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { RECEITA_MINI } from '../fixtures/index.ts';
import { runCli } from '../helpers/cli.ts';

let tmp: string;
const at = (...p: string[]) => path.join(tmp, ...p);

before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-release-cli-'));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** One line on stderr, exit 1. */
function refused(r: { code: number | null; err: string }, pattern: RegExp): void {
  assert.equal(r.code, 1, r.err);
  assert.match(r.err, pattern);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
}

test('keygen writes a 0600 secret key and a minisign public key, and never overwrites them', async () => {
  const r = await runCli(['release', 'keygen', '--out', at('keys')]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^key [0-9A-F]{16}: secret .*release\.key .* public .*release\.pub/);
  assert.equal(fs.statSync(at('keys', 'release.key')).mode & 0o777, 0o600);
  assert.match(
    fs.readFileSync(at('keys', 'release.pub'), 'utf8'),
    /^untrusted comment: minisign public key [0-9A-F]{16}\nRW/,
  );
  refused(await runCli(['release', 'keygen', '--out', at('keys')]), /release\.key already exists/);
});

test('publish refusals: nothing imported, an HTTP target, a missing key', async () => {
  refused(
    await runCli([
      'release',
      'publish',
      '--to',
      at('pub'),
      '--key',
      at('keys', 'release.key'),
      '--data-dir',
      at('empty'),
    ]),
    /no active snapshot to publish \(import a month first\)/,
  );
  refused(
    await runCli([
      'release',
      'publish',
      '--to',
      'http://127.0.0.1:9/x',
      '--key',
      at('keys', 'release.key'),
      '--data-dir',
      at('empty'),
    ]),
    /read only: a release is published to a folder or to s3:\/\//,
  );
  refused(
    await runCli(['release', 'publish', '--to', at('pub'), '--key', at('nope.key'), '--data-dir', at('empty')]),
    /nope\.key is not a release secret key/,
  );
  assert.equal(fs.existsSync(at('pub')), false);
});

test('import --publish-to needs --key (refused before the import), then imports and publishes', async () => {
  refused(
    await runCli(['import', RECEITA_MINI, '--month', '2026-09', '--data-dir', at('A'), '--publish-to', at('pub')]),
    /--publish-to needs --key FILE/,
  );
  assert.equal(fs.existsSync(at('A', 'registry')), false);
  const r = await runCli([
    'import',
    RECEITA_MINI,
    '--month',
    '2026-09',
    '--skip-search',
    '--data-dir',
    at('A'),
    '--publish-to',
    at('pub'),
    '--key',
    at('keys', 'release.key'),
  ]);
  assert.equal(r.code, 0, r.err);
  const id = r.out.trim().split('\n').at(-1)!;
  assert.match(id, /^2026-09-[0-9a-f]{16}$/);
  const latest = JSON.parse(fs.readFileSync(at('pub', 'latest.json'), 'utf8')) as { release: string };
  assert.equal(latest.release, id);
  const status = await runCli(['status', '--data-dir', at('A')]);
  assert.match(status.out, new RegExp(`^release: ${id}$`, 'm'));
  // Publishing the same snapshot again is the same release, with nothing uploaded.
  const again = await runCli([
    'release',
    'publish',
    '--to',
    at('pub'),
    '--key',
    at('keys', 'release.key'),
    '--data-dir',
    at('A'),
  ]);
  assert.equal(again.code, 0, again.err);
  assert.equal(again.out.trim(), id);
  assert.match(again.err, /0\.0 MB uploaded/);
});

test('fleet refusals: activate without the fleet database, a bad --switch-after, an unreachable database', async () => {
  refused(
    await runCli(['release', 'activate', '2026-09-0123456789abcdef']),
    /release activate needs the fleet's database: --database-url/,
  );
  refused(
    await runCli([
      'release',
      'publish',
      '--to',
      at('pub'),
      '--key',
      at('keys', 'release.key'),
      '--switch-after',
      'soon',
    ]),
    /invalid --switch-after "soon": a duration such as 30s, 10m or 2h/,
  );
  // No server on that socket: said, with the URL's password hidden.
  refused(
    await runCli([
      'release',
      'activate',
      '2026-09-0123456789abcdef',
      '--database-url',
      `postgres://cnpj:secret@/cnpj?host=${encodeURIComponent(at('no-such-socket-dir'))}`,
    ]),
    /cannot reach the fleet's database postgres:\/\/cnpj:\*\*\*@/,
  );
});
