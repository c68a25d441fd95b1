// A release source over HTTP(S): any static file server (nginx serving a published folder, a
// public bucket's URL). Read only; ranged GETs on one keep-alive pool, retried by the caller.
import { request, type Dispatcher } from 'undici';
import {
  DEFAULT_NET,
  FatalDownloadError,
  HttpStatusError,
  makeAgent,
  withRetries,
  type NetOptions,
} from '../transfer/http.ts';
import { NotFoundInStore, type ReleaseStore } from './store.ts';

export function openHttpStore(base: string, opts: { connections: number; net?: NetOptions }): ReleaseStore {
  const root = base.endsWith('/') ? base : `${base}/`;
  const net = opts.net ?? DEFAULT_NET;
  const agent: Dispatcher = makeAgent(net, opts.connections);
  const url = (key: string) => new URL(key, root).toString();
  const readOnly = () => {
    throw new Error(`${root} is an HTTP source, which is read only: publish to the folder it serves, or to s3://`);
  };

  return {
    label: root,
    writable: false,
    async getBytes(key) {
      return withRetries(net, async () => {
        const res = await request(url(key), { method: 'GET', dispatcher: agent });
        if (res.statusCode === 404 || res.statusCode === 403) {
          // 403: what a bucket answers for a key that does not exist when listing is not public.
          await res.body.dump();
          return null;
        }
        if (res.statusCode !== 200) {
          await res.body.dump();
          throw new HttpStatusError(res.statusCode, url(key));
        }
        return Buffer.from(await res.body.arrayBuffer());
      });
    },
    async *getRange(key, start, end) {
      if (end <= start) return;
      const res = await request(url(key), {
        method: 'GET',
        headers: { range: `bytes=${start}-${end - 1}` },
        dispatcher: agent,
      });
      try {
        if (res.statusCode === 404) throw new NotFoundInStore(root, key);
        // Past the end, or a range cut short by the end of the file: the file there is shorter than the manifest says.
        const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(String(res.headers['content-range'] ?? ''));
        if (
          res.statusCode === 416 ||
          (res.statusCode === 206 && (!range || Number(range[1]) !== start || Number(range[2]) !== end - 1))
        )
          throw new FatalDownloadError(
            `${key} at ${root} answered ${res.statusCode === 416 ? '416 (range not satisfiable)' : `bytes ${String(res.headers['content-range'])}`} to a request for ${start}-${end - 1}: the file there is shorter than the manifest says (the release there is damaged)`,
          );
        if (res.statusCode === 200 && !(start === 0 && Number(res.headers['content-length']) === end))
          throw new FatalDownloadError(`${root} ignores range requests (answered 200 to a Range GET of ${key})`);
        if (res.statusCode !== 206 && res.statusCode !== 200) throw new HttpStatusError(res.statusCode, url(key));
      } catch (err) {
        await res.body.dump().catch(() => {});
        throw err;
      }
      let got = 0;
      try {
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          got += chunk.length;
          yield chunk;
        }
      } finally {
        // A consumer that stops early must not pin the connection.
        if (got < end - start) await res.body.dump().catch(() => {});
      }
    },
    putFile: readOnly,
    putBytes: readOnly,
    hasFile: readOnly,
    async listReleases() {
      return []; // a static server lists nothing; the pointer names what to pull
    },
    removeRelease: readOnly,
    close: () => agent.close(),
  };
}
