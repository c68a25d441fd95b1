// A local stand-in for the Receita servers: a Nextcloud-like WebDAV share (PROPFIND + basic auth)
// and plain autoindex mirrors, on 127.0.0.1, with per-request misbehaviour (cut, stall, truncate).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { listZip } from '../../../importer/read/zip.ts';
import { RECEITA_MINI } from '../../fixtures/index.ts';

export function sample(name: string): Buffer {
  return fs.readFileSync(path.join(RECEITA_MINI, name));
}

/** A copy of a sample zip with bytes flipped in the middle of its compressed data. */
export async function corrupted(name: string): Promise<Buffer> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpj-corrupt-'));
  const file = path.join(tmp, name);
  fs.writeFileSync(file, sample(name));
  const [m] = await listZip(file);
  const buf = fs.readFileSync(file);
  fs.rmSync(tmp, { recursive: true, force: true });
  const nameLen = buf.readUInt16LE(m.localHeaderOffset + 26);
  const extraLen = buf.readUInt16LE(m.localHeaderOffset + 28);
  const mid = m.localHeaderOffset + 30 + nameLen + extraLen + Math.floor(m.compressedSize / 2);
  buf[mid] ^= 0xff;
  buf[mid + 1] ^= 0x55;
  return buf;
}

export type Behavior =
  | { kind: 'cut'; after: number } // socket destroyed after `after` body bytes
  | { kind: 'stall'; after: number } // sends `after` bytes then nothing, socket left open
  | { kind: 'truncate'; after: number } // full Content-Length, `after` bytes, then a clean FIN
  | { kind: 'ignore-range' } // 200 with the whole file even when Range was asked
  | { kind: 'status'; status: number }
  | { kind: 'body'; body: Buffer }; // serve other bytes this time (same length)

export interface RequestLog {
  method: string;
  path: string;
  range?: string;
  auth?: string;
}

export interface TestServerOptions {
  /** Path prefix → share token for WebDAV shares, e.g. { '/public.php/webdav/': 'TOKEN' }. */
  webdav?: Record<string, string>;
  /** Path prefix → autoindex style for plain mirrors. */
  autoindex?: Record<string, 'apache' | 'python' | 'nginx'>;
  /** Absolute path → bytes. Folders are implied by the paths. */
  files: Record<string, Buffer>;
  /** Empty folders to list too. */
  dirs?: string[];
  /** Misbehaviour for the n-th GET (1-based) of a path. */
  behave?: (p: string, attempt: number) => Behavior | undefined;
  /** Autoindex mirrors answer HEAD with 405 (no size known before the GET). */
  noHead?: boolean;
}

export class TestServer {
  readonly log: RequestLog[] = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();
  private readonly attempts = new Map<string, number>();
  url = '';

  constructor(readonly opts: TestServerOptions) {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  gets(p?: string): RequestLog[] {
    return this.log.filter((r) => r.method === 'GET' && (p === undefined || r.path === p));
  }

  /** Direct children of a folder path (ending in '/'): names, folders with a trailing '/'. */
  private children(dir: string): string[] | undefined {
    const out = new Set<string>();
    let exists = false;
    for (const p of [
      ...Object.keys(this.opts.files),
      ...(this.opts.dirs ?? []).map((d) => d.replace(/\/?$/, '/.keep')),
    ]) {
      if (!p.startsWith(dir)) continue;
      exists = true;
      const rest = p.slice(dir.length);
      const i = rest.indexOf('/');
      const child = i < 0 ? rest : rest.slice(0, i + 1);
      if (child && child !== '.keep') out.add(child);
    }
    return exists ? [...out].sort() : undefined;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = decodeURIComponent(url.pathname);
    this.log.push({ method: req.method ?? '', path: p, range: req.headers.range, auth: req.headers.authorization });
    req.resume();

    const dav = Object.entries(this.opts.webdav ?? {}).find(([prefix]) => p.startsWith(prefix));
    const index = Object.entries(this.opts.autoindex ?? {}).find(([prefix]) => p.startsWith(prefix));
    if (dav) {
      const expected = 'Basic ' + Buffer.from(`${dav[1]}:`).toString('base64');
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="Nextcloud"', 'content-type': 'application/xml' });
        res.end('<?xml version="1.0"?><d:error xmlns:d="DAV:"/>');
        return;
      }
      if (req.method === 'PROPFIND') return this.propfind(p, res);
    } else if (!index) {
      res.writeHead(404).end();
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(dav ? 405 : 501).end();
      return;
    }
    if (p.endsWith('/')) {
      const kids = this.children(p);
      if (!kids || dav) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(autoindexHtml(index![1], url.pathname, kids));
      return;
    }
    const body = this.opts.files[p];
    if (!body) return void res.writeHead(404).end();
    if (req.method === 'HEAD') {
      if (this.opts.noHead && index) return void res.writeHead(405).end();
      res.writeHead(200, { 'content-length': body.length, 'accept-ranges': 'bytes' }).end();
      return;
    }
    const attempt = (this.attempts.get(p) ?? 0) + 1;
    this.attempts.set(p, attempt);
    this.serveFile(req, res, body, this.opts.behave?.(p, attempt));
  }

  private serveFile(req: http.IncomingMessage, res: http.ServerResponse, full: Buffer, b: Behavior | undefined): void {
    if (b?.kind === 'status') return void res.writeHead(b.status).end();
    const bytes = b?.kind === 'body' ? b.body : full;
    let start = 0;
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (m && b?.kind !== 'ignore-range') {
      start = Number(m[1]);
      if (start >= bytes.length) {
        res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
        return;
      }
      res.writeHead(206, {
        'content-length': bytes.length - start,
        'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}`,
      });
    } else {
      res.writeHead(200, { 'content-length': bytes.length, 'accept-ranges': 'bytes' });
    }
    const body = bytes.subarray(start);
    if (!b || b.kind === 'ignore-range' || b.kind === 'body') return void res.end(body);
    res.flushHeaders();
    // Give the client time to read what was sent before misbehaving.
    res.write(body.subarray(0, b.after), () => {
      setTimeout(() => {
        if (b.kind === 'cut') res.socket?.destroy();
        else if (b.kind === 'truncate') res.socket?.end();
        // 'stall': nothing more, the socket stays open until the client gives up.
      }, 50);
    });
  }

  private propfind(p: string, res: http.ServerResponse): void {
    const dir = p.endsWith('/') ? p : `${p}/`;
    const kids = this.children(dir);
    if (!kids) {
      res.writeHead(404, { 'content-type': 'application/xml; charset=utf-8' });
      res.end(
        '<?xml version="1.0" encoding="utf-8"?><d:error xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns"><s:exception>Sabre\\DAV\\Exception\\NotFound</s:exception></d:error>',
      );
      return;
    }
    const enc = (s: string) => s.split('/').map(encodeURIComponent).join('/');
    const entry = (href: string, isDir: boolean, size?: number) =>
      `<d:response><d:href>${enc(href)}</d:href><d:propstat><d:prop>` +
      `<d:getlastmodified>Thu, 10 Sep 2026 10:00:00 GMT</d:getlastmodified>` +
      (isDir
        ? '<d:resourcetype><d:collection/></d:resourcetype>'
        : `<d:resourcetype/><d:getcontentlength>${size}</d:getcontentlength>`) +
      `</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>` +
      (isDir
        ? '<d:propstat><d:prop><d:getcontentlength/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>'
        : '') +
      `</d:response>`;
    let xml =
      '<?xml version="1.0"?>\n<d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns">' +
      entry(dir, true);
    for (const k of kids)
      xml += k.endsWith('/') ? entry(dir + k, true) : entry(dir + k, false, this.opts.files[dir + k].length);
    xml += '</d:multistatus>';
    res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' });
    res.end(xml);
  }
}

export function autoindexHtml(style: 'apache' | 'python' | 'nginx', dirPath: string, kids: string[]): string {
  const href = (k: string) => k.split('/').map(encodeURIComponent).join('/');
  if (style === 'python') {
    return (
      `<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Directory listing for ${dirPath}</title>\n</head>\n<body>\n` +
      `<h1>Directory listing for ${dirPath}</h1>\n<hr>\n<ul>\n` +
      kids.map((k) => `<li><a href="${href(k)}">${k}</a></li>\n`).join('') +
      '</ul>\n<hr>\n</body>\n</html>\n'
    );
  }
  if (style === 'nginx') {
    return (
      `<html>\r\n<head><title>Index of ${dirPath}</title></head>\r\n<body>\r\n<h1>Index of ${dirPath}</h1><hr><pre><a href="../">../</a>\r\n` +
      kids
        .map(
          (k) => `<a href="${href(k)}">${k}</a>${' '.repeat(Math.max(1, 51 - k.length))}10-Sep-2026 10:00       -\r\n`,
        )
        .join('') +
      '</pre><hr></body>\r\n</html>\r\n'
    );
  }
  return (
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">\n<html>\n <head>\n  <title>Index of ' +
    dirPath +
    '</title>\n </head>\n <body>\n' +
    `<h1>Index of ${dirPath}</h1>\n  <table>\n` +
    '   <tr><th valign="top"><img src="/icons/blank.gif" alt="[ICO]"></th><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th><th><a href="?C=S;O=A">Size</a></th><th><a href="?C=D;O=A">Description</a></th></tr>\n' +
    '   <tr><th colspan="5"><hr></th></tr>\n' +
    `<tr><td valign="top"><img src="/icons/back.gif" alt="[PARENTDIR]"></td><td><a href="${dirPath.replace(/[^/]+\/$/, '')}">Parent Directory</a></td><td>&nbsp;</td><td align="right">  - </td><td>&nbsp;</td></tr>\n` +
    kids
      .map(
        (k) =>
          `<tr><td valign="top"><img src="/icons/${k.endsWith('/') ? 'folder' : 'compressed'}.gif" alt="[${k.endsWith('/') ? 'DIR' : '   '}]"></td>` +
          `<td><a href="${href(k)}">${k}</a></td><td align="right">2026-09-10 10:00  </td><td align="right">${k.endsWith('/') ? '  - ' : '341M'}</td><td>&nbsp;</td></tr>\n`,
      )
      .join('') +
    '   <tr><th colspan="5"><hr></th></tr>\n</table>\n<address>Apache/2.4.41 (Ubuntu) Server at 127.0.0.1 Port 80</address>\n</body></html>\n'
  );
}
