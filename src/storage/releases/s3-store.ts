// A release store in an S3-compatible bucket: `s3://bucket/optional/prefix`.
//
// The client reads its configuration the way the AWS tools do: credentials from the default chain
// (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE and ~/.aws, SSO, instance roles), the
// region from AWS_REGION / AWS_DEFAULT_REGION / the profile (us-east-1 when none says), the endpoint
// of a non-AWS store from AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL. A configured endpoint means
// path-style addressing (`http://host/bucket/key`), which every S3-compatible server accepts;
// AWS_S3_FORCE_PATH_STYLE=true|false overrides that guess. Checksums are computed only where the
// protocol requires them: vendors differ on the newer ones, and our SHA-256s (kept as the objects'
// `sha256` metadata) are what counts.
//
// Large files go up as a multipart upload of equal parts (R2 insists on equal sizes), a few in
// flight, each retried on its own; the key appears only when the upload is completed.
// @aws-sdk/client-s3 is loaded on first use: the commands that never touch S3 do not pay for it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { DEFAULT_NET, FatalDownloadError, withRetries, type NetOptions } from '../transfer/http.ts';
import { NotFoundInStore, type PutOptions, type ReleaseStore } from './store.ts';

const MiB = 1024 * 1024;
/** S3's bounds on a part (the last one may be smaller) and on their number. */
const MIN_PART_BYTES = 5 * MiB;
const MAX_PART_BYTES = 5 * 1024 * MiB;
const MAX_PARTS = 10_000;
export const DEFAULT_PART_BYTES = 64 * MiB;
export const PART_BYTES_ENV = 'CNPJ_API_S3_PART_BYTES';

export interface S3StoreOptions {
  /** Size of a multipart upload's parts, and the largest file sent in one PutObject. Default 64 MiB, or CNPJ_API_S3_PART_BYTES. */
  partBytes?: number;
  /** Parts uploading at once. Default 4. */
  partsInFlight?: number;
  /** Retries of one part (or of a single PutObject). Default 5 tries after the first, DEFAULT_NET's backoff. */
  net?: NetOptions;
  /** The process environment to read the configuration from (tests). Default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** `s3://bucket/a/b` → bucket and key prefix ('' or 'a/b/'). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/i.exec(url.trim());
  if (!m) throw new Error(`not an S3 location (s3://bucket/optional/prefix): ${url}`);
  const rest = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (rest.split('/').some((s) => s === '.' || s === '..')) throw new Error(`not an S3 location: ${url}`);
  return { bucket: m[1], prefix: rest === '' ? '' : `${rest}/` };
}

function partBytesFrom(options: S3StoreOptions, env: NodeJS.ProcessEnv): number {
  const raw = options.partBytes ?? (env[PART_BYTES_ENV] ? Number(env[PART_BYTES_ENV]) : DEFAULT_PART_BYTES);
  if (!Number.isSafeInteger(raw) || raw < MIN_PART_BYTES || raw > MAX_PART_BYTES) {
    throw new Error(
      `S3 part size must be a whole number of bytes from ${MIN_PART_BYTES} (5 MiB) to ${MAX_PART_BYTES} (5 GiB)` +
        ` (${PART_BYTES_ENV}): ${options.partBytes ?? env[PART_BYTES_ENV]}`,
    );
  }
  return raw;
}

function boolEnv(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return /^(1|true|yes|on)$/i.test(value);
}

/** The HTTP status of an SDK error, when the server answered. */
function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** A missing object (NoSuchKey; HeadObject's bare 404). A missing bucket is a configuration error, not this. */
function isMissingObject(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  if (name === 'NoSuchBucket') return false;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(err) === 404;
}

/** A 4xx other than timeouts and throttling: retrying the same request cannot help. */
function isClientError(err: unknown): boolean {
  const s = statusOf(err);
  return s !== undefined && s >= 400 && s < 500 && s !== 408 && s !== 425 && s !== 429;
}

/** The SDK's warning that a stream body cannot be retried: our own loop retries with a fresh stream. */
const STREAM_RETRY_WARNING = 'non-retryable streaming request';

export async function openS3Store(url: string, options: S3StoreOptions = {}): Promise<ReleaseStore> {
  const { bucket, prefix } = parseS3Url(url);
  const env = options.env ?? process.env;
  const partBytes = partBytesFrom(options, env);
  const partsInFlight = Math.max(1, options.partsInFlight ?? 4);
  const net: NetOptions = options.net ?? { ...DEFAULT_NET, maxRetries: 5 };
  const label = url;

  // Under Node 20 the SDK warns on every run that its releases after January 2027 need Node 22.
  // package.json pins its version, so the warning tells an operator nothing; one who wants it sets
  // the variable to false.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const s3 = await import('@aws-sdk/client-s3');

  const ignoreEndpoints = boolEnv(env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS) === true;
  const endpoint = ignoreEndpoints ? undefined : env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const config: S3ClientConfig = {
    endpoint,
    forcePathStyle: boolEnv(env.AWS_S3_FORCE_PATH_STYLE) ?? endpoint !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // No byte for this long on a connection → the attempt fails (and is retried).
    requestHandler: { connectionTimeout: net.stallTimeoutMs, requestTimeout: net.stallTimeoutMs },
    logger: {
      debug: () => {},
      info: () => {},
      warn: (...args: unknown[]) => {
        if (!String(args[0]).includes(STREAM_RETRY_WARNING)) console.warn(...args);
      },
      // Every failed command is logged here as well as thrown: the caller's error is enough.
      error: () => {},
    },
  };
  const explicitRegion = env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined;
  let client: S3Client = new s3.S3Client({ ...config, region: explicitRegion });
  if (!explicitRegion) {
    // Not in the environment: the SDK looks in the profile; a store without any region (most
    // S3-compatible ones ignore it) signs for us-east-1, as the AWS CLI does.
    try {
      await client.config.region();
    } catch {
      client.destroy();
      client = new s3.S3Client({ ...config, region: 'us-east-1' });
    }
  }

  const full = (key: string) => prefix + key;

  /** Runs one upload request until it succeeds, fails with a 4xx, or fails `net.maxRetries` times more. */
  const retried = <T>(attempt: () => Promise<T>): Promise<T> =>
    withRetries(net, async () => {
      try {
        return await attempt();
      } catch (err) {
        if (isClientError(err)) throw new FatalDownloadError(`${label}: ${(err as Error).message}`, { cause: err });
        throw err;
      }
    });

  const putSingle = async (key: string, file: string, opts: PutOptions) => {
    await retried(() =>
      client.send(
        new s3.PutObjectCommand({
          Bucket: bucket,
          Key: full(key),
          Body: fs.createReadStream(file),
          ContentLength: opts.size,
          Metadata: { sha256: opts.sha256 },
        }),
      ),
    );
    opts.onBytes?.(opts.size);
  };

  const putMultipart = async (key: string, file: string, opts: PutOptions) => {
    // Equal parts; a file too large for 10,000 of them gets larger parts (whole MiBs).
    const size = opts.size;
    const part = Math.max(partBytes, Math.ceil(size / MAX_PARTS / MiB) * MiB);
    const count = Math.ceil(size / part);
    const created = await client.send(
      new s3.CreateMultipartUploadCommand({ Bucket: bucket, Key: full(key), Metadata: { sha256: opts.sha256 } }),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error(`${label}: no upload id for ${key}`);
    const ids = { Bucket: bucket, Key: full(key), UploadId: uploadId };
    try {
      const etags: string[] = new Array<string>(count);
      let next = 0;
      let failed = false;
      let failure: unknown;
      const worker = async () => {
        while (!failed && next < count) {
          const i = next++;
          const start = i * part;
          const length = Math.min(part, size - start);
          try {
            const out = await retried(() =>
              client.send(
                new s3.UploadPartCommand({
                  ...ids,
                  PartNumber: i + 1,
                  Body: fs.createReadStream(file, { start, end: start + length - 1 }),
                  ContentLength: length,
                }),
              ),
            );
            if (!out.ETag) throw new Error(`${label}: no ETag for part ${i + 1} of ${key}`);
            etags[i] = out.ETag;
            opts.onBytes?.(length);
          } catch (err) {
            if (!failed) failure = err;
            failed = true;
          }
        }
      };
      // Every worker settles before an abort, so no part lands after it.
      await Promise.all(Array.from({ length: Math.min(partsInFlight, count) }, worker));
      if (failed) throw failure;
      await retried(() =>
        client.send(
          new s3.CompleteMultipartUploadCommand({
            ...ids,
            MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
          }),
        ),
      );
    } catch (err) {
      await client.send(new s3.AbortMultipartUploadCommand(ids)).catch(() => {});
      throw err;
    }
  };

  /** Every key under `p`, with the store's prefix. */
  const listKeys = async (p: string): Promise<string[]> => {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await client.send(
        new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: p, ContinuationToken: token }),
      );
      for (const o of out.Contents ?? []) if (o.Key !== undefined) keys.push(o.Key);
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys;
  };

  /** DeleteObjects with the Content-MD5 that older servers (Swift's s3api, older Ceph) demand instead of a CRC. */
  const deleteBatch = async (keys: string[]) => {
    const command = new s3.DeleteObjectsCommand({
      Bucket: bucket,
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    });
    command.middlewareStack.add(
      (next) => async (args) => {
        const req = args.request as { headers?: Record<string, string>; body?: unknown };
        if (req.headers && (typeof req.body === 'string' || req.body instanceof Uint8Array)) {
          req.headers['content-md5'] = createHash('md5').update(req.body).digest('base64');
        }
        return next(args);
      },
      { step: 'build', name: 'cnpjContentMd5' },
    );
    const out = await client.send(command);
    const errors = out.Errors ?? [];
    if (errors.length > 0) {
      const e = errors[0];
      throw new Error(
        `${label}: could not delete ${errors.length} objects, e.g. ${e.Key}: ${e.Code} ${e.Message ?? ''}`,
      );
    }
  };

  let multiDelete = true;

  const store: ReleaseStore = {
    label,
    writable: true,

    async getBytes(key) {
      try {
        const out = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: full(key) }));
        if (!out.Body) return Buffer.alloc(0);
        const bytes = await out.Body.transformToByteArray();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } catch (err) {
        if (isMissingObject(err)) return null;
        throw err;
      }
    },

    async *getRange(key, start, end) {
      if (end <= start) return;
      let out;
      try {
        out = await client.send(
          new s3.GetObjectCommand({ Bucket: bucket, Key: full(key), Range: `bytes=${start}-${end - 1}` }),
        );
      } catch (err) {
        if (isMissingObject(err)) throw new NotFoundInStore(label, key);
        // Bad credentials, no such bucket, access denied: the same request fails the same way.
        if (isClientError(err)) throw new FatalDownloadError(`${label}: ${(err as Error).message}`, { cause: err });
        throw err;
      }
      const body = out.Body as Readable | undefined;
      const want = end - start;
      // A server that ignored the range (200, whole object) or clipped it (object shorter than
      // the manifest says) would hand us the wrong bytes: no retry changes that.
      if (!out.ContentRange?.startsWith(`bytes ${start}-${end - 1}/`) || (out.ContentLength ?? want) !== want) {
        body?.destroy();
        throw new FatalDownloadError(
          `${label}: ${key} answered bytes ${out.ContentRange ?? '(whole object)'} to a request for ${start}-${end - 1}`,
        );
      }
      if (!body) throw new Error(`${label}: ${key} answered no body`);
      let got = 0;
      try {
        for await (const chunk of body) {
          const buf = chunk as Buffer;
          got += buf.length;
          yield buf;
        }
      } finally {
        // The consumer may stop early: free the connection.
        if (got < want) body.destroy();
      }
      if (got !== want) throw new Error(`${label}: ${key} ended after ${got} of ${want} bytes`);
    },

    async putFile(key, file, opts) {
      const { size } = await fs.promises.stat(file);
      if (size !== opts.size) throw new Error(`${file} has ${size} bytes, not the ${opts.size} expected`);
      if (size <= partBytes) await putSingle(key, file, opts);
      else await putMultipart(key, file, opts);
    },

    async putBytes(key, body) {
      await client.send(new s3.PutObjectCommand({ Bucket: bucket, Key: full(key), Body: body }));
    },

    async hasFile(key, size, sha256) {
      try {
        const out = await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: full(key) }));
        return out.ContentLength === size && out.Metadata?.sha256 === sha256;
      } catch (err) {
        if (isMissingObject(err)) return false;
        throw err;
      }
    },

    async listReleases() {
      const base = full('releases/');
      const ids: string[] = [];
      let token: string | undefined;
      do {
        const out = await client.send(
          new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: base, Delimiter: '/', ContinuationToken: token }),
        );
        for (const p of out.CommonPrefixes ?? []) {
          const id = p.Prefix?.slice(base.length).replace(/\/$/, '');
          if (id) ids.push(id);
        }
        token = out.IsTruncated ? out.NextContinuationToken : undefined;
      } while (token);
      return ids;
    },

    async removeRelease(id) {
      if (id === '' || id.includes('/') || id === '.' || id === '..') throw new Error(`not a release id: ${id}`);
      const keys = await listKeys(full(`releases/${id}/`));
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        if (multiDelete) {
          try {
            await deleteBatch(batch);
            continue;
          } catch (err) {
            // A store without multi-object delete: one DELETE per key from here on.
            const s = statusOf(err);
            if (!(s === 501 || (err as { name?: string })?.name === 'NotImplemented')) throw err;
            multiDelete = false;
          }
        }
        for (const Key of batch) await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key }));
      }
    },

    async close() {
      client.destroy();
    },
  };
  return store;
}
