// Where releases live: one interface over a directory, an HTTP(S) server (read only) and an
// S3-compatible bucket. Keys are '/'-separated paths relative to the store's root
// (`latest.json`, `releases/<id>/manifest.json`, `releases/<id>/snapshot/companies.db`).
// Integrity is ours (SHA-256s in the signed manifest), never the store's checksums.

export interface PutOptions {
  size: number;
  /** Our SHA-256 of the file (hex): kept as metadata where the store has any, so a re-publish can skip it. */
  sha256: string;
  /** Bytes written so far, for progress lines. */
  onBytes?: (delta: number) => void;
}

export interface ReleaseStore {
  /** The location as the operator wrote it, for messages. */
  readonly label: string;
  /** A whole small object (manifest, pointer, signature); null when it does not exist. */
  getBytes(key: string): Promise<Buffer | null>;
  /**
   * Bytes [start, end) of an object, streamed. A network failure surfaces as an error while
   * iterating (retryable per transfer/http.ts's isRetryable); a missing object as NotFound.
   */
  getRange(key: string, start: number, end: number): AsyncIterable<Buffer>;
  /** Uploads a local file; the key shows the whole file or nothing (temp file + rename, multipart completion). */
  putFile(key: string, file: string, opts: PutOptions): Promise<void>;
  /** Writes a small object whole. */
  putBytes(key: string, body: Buffer): Promise<void>;
  /** True when `key` already holds this file (same size, and our SHA-256 where the store keeps it). */
  hasFile(key: string, size: number, sha256: string): Promise<boolean>;
  /** The release ids present (folders under `releases/`), in no particular order. */
  listReleases(): Promise<string[]>;
  /** Deletes everything under `releases/<id>/`. */
  removeRelease(id: string): Promise<void>;
  /** True for stores a release can be published to. */
  readonly writable: boolean;
  close(): Promise<void>;
}

/** The object does not exist at the store. */
export class NotFoundInStore extends Error {
  override name = 'NotFoundInStore';
  constructor(
    readonly store: string,
    readonly key: string,
  ) {
    super(`${store}: ${key} does not exist`);
  }
}

export const LATEST_KEY = 'latest.json';
export const SIGNATURE_SUFFIX = '.minisig';
export const releaseKey = (id: string, rel = ''): string => `releases/${id}/${rel}`.replace(/\/$/, '');
