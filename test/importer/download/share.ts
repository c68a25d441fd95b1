// The download tests' fixtures: the official share's layout (monthly WebDAV share, regime share
// with its own token) on a loopback TestServer, options for downloadMonth, and checks.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'node:test';
import type { DownloadOptions } from '../../../importer/download/month.ts';
import { sample, TestServer, type Behavior, type TestServerOptions } from './server.ts';

export const TOKEN = 'TestTok3n';
export const REGIME_TOKEN = 'RegimeTok';
export const DAV = '/public.php/webdav/';
export const MONTH_FILES = ['Empresas0.zip', 'Estabelecimentos0.zip', 'Socios0.zip', 'Cnaes.zip'];
export const REGIME = {
  'entidades-lucro-real.zip': 'Lucro Real.zip',
  'entidades-lucro-presumido.zip': 'Lucro Presumido.zip',
  'entidades-lucro-arbitrado.zip': 'Lucro Arbitrado.zip',
  'entidades-imunes-e-isentas.zip': 'Imunes e Isentas.zip',
};

let servers: TestServer[] = [];
let tmps: string[] = [];

/** Stops the test's servers and removes its folders after each test of the calling file. */
export function cleanUpAfterEach(): void {
  afterEach(async () => {
    for (const s of servers) await s.stop();
    for (const t of tmps) fs.rmSync(t, { recursive: true, force: true });
    servers = [];
    tmps = [];
  });
}

/** A server stopped after the test. */
export function track(s: TestServer): TestServer {
  servers.push(s);
  return s;
}

export function tmpdir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-dl-'));
  tmps.push(d);
  return d;
}

/** The official layout: monthly share with two months, regime share at /regime/ (its own token). */
export function shareFiles(month = '2026-08'): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const f of MONTH_FILES) files[`${DAV}${month}/${f}`] = sample(f);
  files[`${DAV}2026-07/Empresas0.zip`] = sample('Empresas0.zip');
  for (const [remote, local] of Object.entries(REGIME)) files[`/regime${DAV}${remote}`] = sample(local);
  files[`/regime${DAV}renuncia-irpj-csll-ecf.csv`] = Buffer.from('a,b\n');
  files[`/regime${DAV}entidades-regime-tributario-dicionarios/dicionario.pdf`] = Buffer.from('%PDF');
  return files;
}

export async function share(extra: Partial<TestServerOptions> = {}): Promise<TestServer> {
  const s = await new TestServer({
    webdav: { [`/regime${DAV}`]: REGIME_TOKEN, [DAV]: TOKEN },
    files: shareFiles(),
    dirs: [`${DAV}2025-12`, `${DAV}temp`],
    ...extra,
  }).start();
  return track(s);
}

export function opts(s: TestServer, more: Partial<DownloadOptions> = {}): DownloadOptions {
  const u = new URL(s.url);
  return {
    dataDir: tmpdir(),
    source: `http://${TOKEN}@${u.host}${DAV}`,
    regimeSource: `http://${REGIME_TOKEN}@${u.host}/regime${DAV}`,
    parallel: 3,
    net: { stallTimeoutMs: 300, maxRetries: 4, backoffBaseMs: 10, backoffMaxMs: 50 },
    log: () => {},
    progressStream: null,
    ...more,
  };
}

export function assertComplete(dir: string, names: string[]): void {
  const present = fs
    .readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .sort();
  assert.deepEqual(present, [...names].sort());
  for (const n of names) {
    const expected = sample(n);
    assert.ok(fs.readFileSync(path.join(dir, n)).equals(expected), `${n} differs from the sample`);
  }
}

export const ALL_LOCAL = [...MONTH_FILES, ...Object.values(REGIME)];

export function behaveOn(file: string, first: Behavior, more?: Behavior): TestServerOptions['behave'] {
  return (p, attempt) => (p.endsWith(`/${file}`) ? (attempt === 1 ? first : more) : undefined);
}
