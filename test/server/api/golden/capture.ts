// The API golden capture: the sample month imported by the real importer, served by the real
// server, asked every lookup form for every CNPJ and a fixed list of error cases; per answer the
// status, the deterministic headers and the body's sha256. The code of one source tree comes in
// as a GoldenTree, so the very same capture runs on another checkout (the golden file was made
// on the code before #13 that way; see scripts/api-golden.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Sqlite } from '../../../../src/storage/sqlite.ts';
import { contactCases, fixedCases, lookupCases, type Case } from './cases.ts';
import type { GoldenSample } from './samples.ts';

export { VOLATILE_STATUS_FIELDS } from './cases.ts';

type MaybePromise<T> = T | Promise<T>;

/**
 * What the capture needs from a source tree (the same names and arguments since before #13; the
 * app-state functions take the tree's app handle, which openAppDb gives, and may answer
 * synchronously, as before fleet mode, or with a promise).
 */
export interface GoldenTree<App = unknown> {
  runImport(opts: { dataDir: string; inputs: string[]; month: string }): Promise<{ dir: string }>;
  openAppDb(dataDir: string): Promise<{ app: App; close(): Promise<void> }>;
  openSqlite(file: string, opts: { readonly: boolean; fileMustExist: boolean }): Sqlite;
  setPlan(app: App, name: string, changes: { monthlyQuota: number; apiIncluded: boolean }): unknown;
  createAccount(app: App, input: { name: string; plan: string }): MaybePromise<{ id: number }>;
  createToken(
    app: App,
    input: { accountId: number; name: string; createdBy: 'cli'; expires?: string },
    now?: () => Date,
  ): MaybePromise<{ id: number; token: string }>;
  deactivateToken(app: App, id: number): unknown;
  suspendAccount(app: App, name: string): unknown;
  storeContacts(
    app: App,
    rows: { cnpj: string; contact: { tipo_contato: string; tipo_website: string; contato: string } }[],
    mode: 'replace',
  ): unknown;
  startServer(opts: {
    dataDir: string;
    host: string;
    port: number;
    publicUrl: string;
    now: () => Date;
    pollMs: number;
    log: (line: string) => void;
  }): Promise<{ url: string; close(): Promise<void> }>;
}

export interface GoldenAnswer {
  case: string;
  /** Method, path and headers as sent, tokens as {name} placeholders. */
  request: string;
  status: number;
  /** Lower-case names, sorted; VOLATILE_HEADERS left out. */
  headers: Record<string, string>;
  bytes: number;
  sha256: string;
  /** The body itself when it is small text (error answers, lookups): the diff shows it. */
  body?: string;
}

export interface GoldenCapture {
  /** The establishments of the imported sample month, in order. */
  cnpjs: string[];
  answers: GoldenAnswer[];
}

/** The server's clock: quota resets, Retry-After and expiry sentences follow it, not the day the test runs. */
export const CLOCK = '2026-09-15T12:34:56.789Z';
export const PUBLIC_URL = 'http://cnpj.example';
export const MONTH = '2026-09';
/** The time of the answer: the one header that changes from run to run (the clock is fixed for the rest). */
export const VOLATILE_HEADERS = ['date'];

/** A server of `tree` on a fresh data dir holding the imported sample; every case asked in order. */
export async function captureApi(
  tree: GoldenTree,
  sample: Pick<GoldenSample, 'dir' | 'allForms' | 'bodyKeptMax'>,
): Promise<GoldenCapture> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-api-golden-'));
  const dataDir = path.join(root, 'data');
  const now = () => new Date(CLOCK);
  let server: { url: string; close(): Promise<void> } | undefined;
  try {
    const imported = await tree.runImport({ dataDir, inputs: [sample.dir], month: MONTH });
    const { cnpjs, bases } = readSample(tree, imported.dir);
    const tokens = await makeTokens(tree, dataDir, path.join(root, 'other'));
    server = await tree.startServer({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      publicUrl: PUBLIC_URL,
      now,
      pollMs: 25,
      log: () => {},
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers: GoldenAnswer[] = [];
      const ask = async (cases: Case[]) => {
        for (const c of cases) answers.push(await send(server!.url, agent, c, tokens, sample.bodyKeptMax));
      };
      await ask([...lookupCases(cnpjs, bases, sample.allForms), ...fixedCases(cnpjs[0])]);
      // The contacts are reloaded when app.db's contacts epoch moves: the same server answers with them.
      await withApp(tree, dataDir, async (s) => {
        await tree.storeContacts(s, cnpjs.flatMap(contactsOf), 'replace');
      });
      await ask(contactCases(cnpjs, sample.allForms));
      return { cnpjs, answers };
    } finally {
      agent.destroy();
    }
  } finally {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function readSample(tree: GoldenTree, snapshotDir: string): { cnpjs: string[]; bases: string[] } {
  const read = (file: string, sql: string) => {
    const db = tree.openSqlite(path.join(snapshotDir, file), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(sql).pluck().all() as string[]).map(String);
    } finally {
      db.close();
    }
  };
  return {
    cnpjs: read('establishments.db', 'SELECT cnpj FROM establishments ORDER BY cnpj'),
    bases: read('companies.db', 'SELECT basico FROM companies ORDER BY basico'),
  };
}

const contactsOf = (cnpj: string) => [
  {
    cnpj,
    contact: { tipo_contato: 'website', tipo_website: 'institucional', contato: `https://${cnpj}.example.com.br/` },
  },
  { cnpj, contact: { tipo_contato: 'email', tipo_website: '', contato: `contato+${cnpj}@example.com.br` } },
];

async function withApp<T, App>(tree: GoldenTree<App>, dataDir: string, fn: (s: App) => Promise<T>): Promise<T> {
  const app = await tree.openAppDb(dataDir);
  try {
    return await fn(app.app);
  } finally {
    await app.close();
  }
}

/** One token per access state the lookup tells apart; `unknown` has a valid shape and checksum but lives in another app.db. */
async function makeTokens(tree: GoldenTree, dataDir: string, otherDir: string): Promise<Record<string, string>> {
  const day = 86_400_000;
  const tokens: Record<string, string> = {};
  await withApp(tree, dataDir, async (s) => {
    const make = async (name: string, quota: number, apiIncluded = true, expires?: string, at?: () => Date) => {
      await tree.setPlan(s, `Plano ${name}`, { monthlyQuota: quota, apiIncluded });
      const account = await tree.createAccount(s, { name, plan: `Plano ${name}` });
      const t = await tree.createToken(s, { accountId: account.id, name: 'golden', createdBy: 'cli', expires }, at);
      tokens[name] = t.token;
      return t;
    };
    await make('main', 100_000);
    await make('quota2', 2);
    await make('quota0', 0);
    await make('noapi', 1000, false);
    await make('expired', 1000, true, '2026-09-14', () => new Date(Date.parse(CLOCK) - 2 * day));
    await tree.deactivateToken(s, (await make('off', 1000)).id);
    await make('suspended', 1000);
    await tree.suspendAccount(s, 'suspended');
  });
  fs.mkdirSync(otherDir, { recursive: true });
  await withApp(tree, otherDir, async (s) => {
    await tree.setPlan(s, 'Plano unknown', { monthlyQuota: 1000, apiIncluded: true });
    const account = await tree.createAccount(s, { name: 'unknown', plan: 'Plano unknown' });
    tokens.unknown = (await tree.createToken(s, { accountId: account.id, name: 'golden', createdBy: 'cli' })).token;
  });
  return tokens;
}

const fill = (s: string, tokens: Record<string, string>) =>
  s.replace(/\{(\w+)\}/g, (m, name: string) => {
    if (!(name in tokens)) throw new Error(`golden case: no token named ${m}`);
    return tokens[name];
  });

function send(
  base: string,
  agent: http.Agent,
  c: Case,
  tokens: Record<string, string>,
  keptMax: number,
): Promise<GoldenAnswer> {
  if (c.raw !== undefined) return sendRaw(base, c, fill(c.raw, tokens), keptMax);
  const headers = Object.fromEntries(Object.entries(c.headers ?? {}).map(([k, v]) => [k, fill(v, tokens)]));
  const request = [`${c.method} ${c.path}`, ...Object.entries(c.headers ?? {}).map(([k, v]) => `${k}: ${v}`)].join(
    ' | ',
  );
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(base), { agent, method: c.method, path: fill(c.path, tokens), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('error', reject);
      res.on('end', () =>
        resolve(record(c, request, res.statusCode ?? 0, res.rawHeaders, Buffer.concat(chunks), keptMax)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bytes http.request will not send (a malformed request line, oversized headers) on a connection of their own. */
function sendRaw(base: string, c: Case, raw: string, keptMax: number): Promise<GoldenAnswer> {
  const u = new URL(base);
  const request = `raw ${JSON.stringify(raw.length > 100 ? `${raw.slice(0, 80)}… (${raw.length} bytes)` : raw)}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port) }, () => socket.write(raw));
    let buf = Buffer.alloc(0);
    const done = () => {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
      const rawHeaders = lines
        .slice(1)
        .flatMap((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]);
      const header = (name: string) =>
        rawHeaders[rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === name) + 1];
      const body = /chunked/i.test(header('transfer-encoding') ?? '')
        ? dechunk(buf.subarray(end + 4))
        : buf.subarray(end + 4, end + 4 + Number(header('content-length') ?? 0));
      if (body === null || (header('content-length') !== undefined && body.length < Number(header('content-length'))))
        return false;
      socket.destroy();
      resolve(record(c, request, Number(lines[0].split(' ')[1]), rawHeaders, body, keptMax));
      return true;
    };
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      done();
    });
    socket.on('error', () => {}); // a reset after the answer; an answer never read fails at 'close'
    socket.on(
      'close',
      () => done() || reject(new Error(`${c.name}: connection closed without a whole answer (${buf.length} bytes)`)),
    );
  });
}

/** A chunked body once its last chunk arrived, else null. */
function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return data.indexOf('\r\n', eol + 2) < 0 ? null : Buffer.concat(parts);
    if (data.length < eol + 2 + size + 2) return null;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

function record(
  c: Case,
  request: string,
  status: number,
  rawHeaders: string[],
  received: Buffer,
  keptMax: number,
): GoldenAnswer {
  let text = received.toString('utf8');
  if (c.volatileFields) text = blank(text, c.volatileFields);
  const body = Buffer.from(text);
  const kept: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    // A month imported here is named by its snapshot id, whose import time changes from run to run.
    const value =
      name === 'x-registry-release'
        ? rawHeaders[i + 1].replace(/_\d{8}-\d{6}(-\d+)?$/, '_{imported-at}')
        : rawHeaders[i + 1];
    if (!VOLATILE_HEADERS.includes(name)) kept[name] = kept[name] === undefined ? value : `${kept[name]}, ${value}`;
  }
  const textual = /json|text\/plain/.test(kept['content-type'] ?? '');
  return {
    case: c.name,
    request,
    status,
    headers: Object.fromEntries(
      Object.keys(kept)
        .sort()
        .map((k) => [k, kept[k]]),
    ),
    bytes: body.length,
    sha256: createHash('sha256').update(body).digest('hex'),
    ...(textual && body.length > 0 && body.length <= keptMax ? { body: text } : {}),
  };
}

/** `"field":"value"` → `"field":"<volatile>"`, the rest of the bytes untouched. */
function blank(text: string, fields: readonly string[]): string {
  for (const f of fields) text = text.replace(new RegExp(`("${f}":)"[^"]*"`, 'g'), '$1"<volatile>"');
  return text;
}
