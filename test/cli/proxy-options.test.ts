// --public-url and --trust-proxy on the command line: validation (a bad value names the flag or
// the variable it came from, and nothing starts), and `serve --workers 2` passing both on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { after, test } from 'node:test';
import { PUBLIC_URL_ENV } from '../../src/lib/config.ts';
import { proxyOptionsOf } from '../../src/cli/options.ts';
import { killServe, spawnServe, tempDataDir } from '../server/helpers.ts';
import { CLI } from '../helpers/cli.ts';

const dataDir = tempDataDir();
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function withEnv<T>(value: string | undefined, fn: () => T): T {
  const saved = process.env[PUBLIC_URL_ENV];
  if (value === undefined) delete process.env[PUBLIC_URL_ENV];
  else process.env[PUBLIC_URL_ENV] = value;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env[PUBLIC_URL_ENV];
    else process.env[PUBLIC_URL_ENV] = saved;
  }
}

test('--public-url is normalised to its origin; the flag wins over CNPJ_API_PUBLIC_URL', () => {
  const of = (url: string | undefined, env?: string) =>
    withEnv(env, () => proxyOptionsOf({ 'public-url': url, 'trust-proxy': false }));
  assert.deepEqual(of('https://CNPJ.Example.com/'), { publicUrl: 'https://cnpj.example.com', trustProxy: false });
  assert.equal(of('https://cnpj.example.com:443').publicUrl, 'https://cnpj.example.com');
  assert.equal(of('http://[::1]:8080/').publicUrl, 'http://[::1]:8080');
  assert.equal(of(undefined, 'https://env.example.com/').publicUrl, 'https://env.example.com');
  assert.equal(of('https://flag.example.com', 'https://env.example.com').publicUrl, 'https://flag.example.com');
  assert.equal(of(undefined, '').publicUrl, undefined, 'an empty variable is no setting');
  assert.equal(of(undefined).publicUrl, undefined);
});

test('a bad --public-url or CNPJ_API_PUBLIC_URL is refused with a sentence naming it', () => {
  const bad: [string, RegExp][] = [
    ['', /absolute http:\/\/ or https:\/\/ URL/],
    ['cnpj.example.com', /absolute http:\/\/ or https:\/\/ URL/],
    ['ftp://cnpj.example.com', /http:\/\/ or https:\/\/ URL/],
    ['https://user:secret@cnpj.example.com', /user name or password/],
    ['https://cnpj.example.com/?a=1', /query \(\?\) or fragment \(#\)/],
    ['https://cnpj.example.com/?', /query \(\?\) or fragment \(#\)/],
    ['https://cnpj.example.com/#docs', /query \(\?\) or fragment \(#\)/],
    ['https://cnpj.example.com/api/', /must not have a path/],
  ];
  for (const [value, why] of bad) {
    assert.throws(
      () => withEnv(undefined, () => proxyOptionsOf({ 'public-url': value, 'trust-proxy': false })),
      (e: Error) => {
        assert.match(e.message, /^invalid --public-url "/, value);
        assert.match(e.message, why, value);
        return true;
      },
    );
  }
  assert.throws(
    () => withEnv('ftp://x', () => proxyOptionsOf({ 'trust-proxy': false })),
    /: invalid CNPJ_API_PUBLIC_URL "ftp:\/\/x": must be an http/,
  );
});

test('serve and start exit non-zero at once on a bad public URL, naming the flag or variable', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI, ...args, '--port', '0', '--data-dir', dataDir], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
  const serve = run(['serve', '--public-url', 'https://cnpj.example.com/?x=1']);
  assert.equal(serve.status, 1, serve.stderr);
  assert.match(
    serve.stderr,
    /^error: invalid --public-url "https:\/\/cnpj\.example\.com\/\?x=1": must not have a query/m,
  );
  const start = run(['start'], { [PUBLIC_URL_ENV]: 'cnpj.example.com' });
  assert.equal(start.status, 1, start.stderr);
  assert.match(start.stderr, /^error: invalid CNPJ_API_PUBLIC_URL "cnpj\.example\.com"/m);
  assert.equal(fs.existsSync(`${dataDir}/app.db`), false, 'nothing was started or created');
});

test('serve --workers 2 --trust-proxy --public-url: every worker shows the public URL and sends HSTS', async () => {
  const server = await spawnServe(dataDir, [
    '--workers',
    '2',
    '--trust-proxy',
    '--public-url',
    'https://CNPJ.example.com/',
  ]);
  try {
    assert.match(
      server.stderr(),
      /serving on http:\/\/127\.0\.0\.1:\d+ \(public URL https:\/\/cnpj\.example\.com, docs: https:\/\/cnpj\.example\.com\/docs\)/,
    );
    // New connections, so the kernel hands them to both workers.
    for (let i = 0; i < 12; i++) {
      const { status, hsts, body } = await new Promise<{ status?: number; hsts?: string | string[]; body: string }>(
        (resolve, reject) => {
          http
            .get(`${server.url}/openapi.json`, { agent: false }, (res) => {
              let body = '';
              res.setEncoding('utf8').on('data', (c) => (body += c));
              res.on('end', () =>
                resolve({ status: res.statusCode, hsts: res.headers['strict-transport-security'], body }),
              );
            })
            .on('error', reject);
        },
      );
      assert.equal(status, 200);
      assert.equal(hsts, 'max-age=31536000');
      assert.deepEqual((JSON.parse(body) as { servers: unknown }).servers, [{ url: 'https://cnpj.example.com' }]);
    }
  } finally {
    await killServe(server);
  }
});
