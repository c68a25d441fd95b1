// Listing a source folder (PROPFIND or autoindex GET) and asking a file's size (HEAD).
import { request, type Dispatcher } from 'undici';
import {
  describeError,
  FatalDownloadError,
  HttpStatusError,
  withRetries,
  type NetOptions,
} from '../../src/storage/transfer/http.ts';
import { PROPFIND_BODY, parseAutoindex, parseMultistatus, type RemoteEntry } from './listing.ts';
import type { Source } from './servers.ts';

export class NotFoundError extends FatalDownloadError {
  constructor(readonly url: string) {
    super(`${url} does not exist on the server (HTTP 404)`);
    this.name = 'NotFoundError';
  }
}

export interface RemoteCtx {
  agent: Dispatcher;
  net: NetOptions;
  onRetry?: (what: string, err: unknown, delayMs: number) => void;
}

function authFailed(source: Source, status: number): FatalDownloadError {
  return new FatalDownloadError(
    source.kind === 'webdav'
      ? `The share at ${source.url} refused access (HTTP ${status}); the share token may have changed (see dados.gov.br, dataset CNPJ, "Recursos") — pass the new one as --source https://TOKEN@host/public.php/webdav/.`
      : `${source.url} refused access (HTTP ${status}).`,
  );
}

function headers(source: Source, extra: Record<string, string> = {}): Record<string, string> {
  return source.auth ? { authorization: source.auth, ...extra } : extra;
}

/** Lists `sub` (a folder path relative to the source, '' for its root). */
export async function listFolder(source: Source, sub: string, ctx: RemoteCtx): Promise<RemoteEntry[]> {
  const url = new URL(sub ? `${sub.split('/').map(encodeURIComponent).join('/')}/` : '', source.url).href;
  return giveUpClearly(
    `Could not list ${url}`,
    withRetries(
      ctx.net,
      async () => {
        const dav = source.kind === 'webdav';
        const res = await request(url, {
          method: dav ? 'PROPFIND' : 'GET',
          headers: headers(
            source,
            dav ? { depth: '1', 'content-type': 'application/xml; charset=utf-8' } : { accept: 'text/html' },
          ),
          body: dav ? PROPFIND_BODY : undefined,
          dispatcher: ctx.agent,
        });
        if (res.statusCode === 404) {
          await res.body.dump();
          throw new NotFoundError(url);
        }
        if (res.statusCode === 401 || res.statusCode === 403) {
          await res.body.dump();
          throw authFailed(source, res.statusCode);
        }
        if (dav ? res.statusCode !== 207 : res.statusCode !== 200) {
          await res.body.dump();
          if (dav && res.statusCode >= 200 && res.statusCode < 300) {
            throw new FatalDownloadError(`${url} is not a WebDAV folder (PROPFIND answered HTTP ${res.statusCode}).`);
          }
          throw new HttpStatusError(res.statusCode, url);
        }
        const text = await res.body.text();
        return dav ? parseMultistatus(text, url) : parseAutoindex(text, url);
      },
      (err, delay) => ctx.onRetry?.(`listing ${url}`, err, delay),
    ),
  );
}

/** Network errors that outlived the retries become one sentence naming what failed. */
async function giveUpClearly<T>(what: string, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof FatalDownloadError) throw err;
    throw new FatalDownloadError(`${what}: ${describeError(err)}, even after retrying.`);
  }
}

/** Size from HEAD, for mirrors whose listing has no exact sizes; undefined when not told. */
export async function headSize(source: Source, url: string, ctx: RemoteCtx): Promise<number | undefined> {
  return withRetries(
    ctx.net,
    async () => {
      const res = await request(url, { method: 'HEAD', headers: headers(source), dispatcher: ctx.agent });
      await res.body.dump();
      if (res.statusCode === 404) throw new NotFoundError(url);
      if (res.statusCode === 401 || res.statusCode === 403) throw authFailed(source, res.statusCode);
      if (res.statusCode === 405 || res.statusCode === 501) return undefined;
      if (res.statusCode !== 200) throw new HttpStatusError(res.statusCode, url);
      const len = res.headers['content-length'];
      return typeof len === 'string' && /^\d+$/.test(len) ? Number(len) : undefined;
    },
    (err, delay) => ctx.onRetry?.(`HEAD ${url}`, err, delay),
  );
}

export { authFailed, headers as sourceHeaders };
