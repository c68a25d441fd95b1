// The release manifest and the `latest.json` pointer: their schema (one TypeBox source for the
// types and the check of what a store hands us), the canonical release id, and their parsing.
// docs/releases.md describes the layout.
import crypto from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Bumped when a reader of an older format could misread a newer manifest. */
export const RELEASE_FORMAT = 1;
/** Per-chunk hashes every 64 MiB: a broken or interrupted range is fetched again alone. */
export const DEFAULT_CHUNK_BYTES = 64 * 2 ** 20;

const Hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Month = Type.String({ pattern: '^\\d{4}-\\d{2}$' });
/** A path inside a release folder: no absolute path, no `..`, no backslash. */
const RelPath = Type.String({ pattern: '^(?!/)(?!.*(^|/)\\.\\.?(/|$))[A-Za-z0-9._/-]+$', maxLength: 200 });

export const ReleaseFile = Type.Object({
  path: RelPath,
  size: Type.Integer({ minimum: 0 }),
  sha256: Hex64,
  /** SHA-256 of each `chunkBytes` range, in order (the last one shorter). */
  chunks: Type.Array(Hex64),
});
export type ReleaseFile = Static<typeof ReleaseFile>;

export const HistoryEntry = Type.Object({
  month: Month,
  fromMonth: Month,
  /** When the publisher recorded it: with `month`, what tells a node that already has this recording. */
  recordedAt: Type.String(),
  subjectsVersion: Type.Integer(),
  /** The file (in `files`) holding this month alone, in history.db's layout. */
  path: RelPath,
});
export type HistoryEntry = Static<typeof HistoryEntry>;

export const Manifest = Type.Object({
  format: Type.Literal(RELEASE_FORMAT),
  release: Type.String({ pattern: '^\\d{4}-\\d{2}-[0-9a-f]{16}$' }),
  month: Month,
  /** The Receita's extraction date of the month's files, when they carry one. */
  extracted: Type.Union([Type.String(), Type.Null()]),
  /** The snapshot's id at the publisher (its folder name there). */
  snapshot: Type.String({ pattern: '^[A-Za-z0-9._-]+$' }),
  importedAt: Type.String(),
  publishedAt: Type.String(),
  builtBy: Type.Object({ name: Type.Literal('cnpj-api'), version: Type.String() }),
  schemas: Type.Object({
    snapshot: Type.Integer(),
    /** null: the snapshot has no search index. */
    search: Type.Union([Type.Integer(), Type.Null()]),
    history: Type.Integer(),
  }),
  /** The import's statistics (SnapshotStats), as the publisher recorded them. */
  stats: Type.Record(Type.String(), Type.Unknown()),
  chunkBytes: Type.Integer({ minimum: 1 }),
  /** The snapshot's files (`snapshot/...`) and the history months' (`history/...`). */
  files: Type.Array(ReleaseFile),
  history: Type.Array(HistoryEntry),
});
export type Manifest = Static<typeof Manifest>;

export const Latest = Type.Object({
  format: Type.Literal(RELEASE_FORMAT),
  release: Type.String(),
  month: Month,
  /** SHA-256 of the release's manifest.json bytes: the pointer and the manifest must agree. */
  manifestSha256: Hex64,
  publishedAt: Type.String(),
});
export type Latest = Static<typeof Latest>;

export const sha256Hex = (data: Buffer | string): string => crypto.createHash('sha256').update(data).digest('hex');

/**
 * The release id: the month and 16 hex digits of a hash over every file's path, size and
 * SHA-256. The same files give the same id, wherever and however often they are published.
 */
export function releaseId(month: string, files: readonly ReleaseFile[]): string {
  const listing = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `${f.path}\t${f.size}\t${f.sha256}\n`)
    .join('');
  return `${month}-${sha256Hex(`cnpj-api release ${RELEASE_FORMAT}\n${listing}`).slice(0, 16)}`;
}

/** A release whose content does not fit the format; the message says what. */
export class ManifestError extends Error {
  override name = 'ManifestError';
}

function parseChecked<T>(schema: Parameters<typeof Value.Check>[0], bytes: Buffer, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new ManifestError(`${what} is not JSON: ${(err as Error).message}`);
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > RELEASE_FORMAT)
    throw new ManifestError(
      `${what} has release format ${format}, this cnpj-api reads format ${RELEASE_FORMAT}: upgrade cnpj-api`,
    );
  if (!Value.Check(schema, value)) {
    const first = Value.Errors(schema, value).First();
    throw new ManifestError(`${what} is not a valid release file (${first?.path || '/'}: ${first?.message ?? '?'})`);
  }
  return value as T;
}

export function parseManifest(bytes: Buffer, what: string): Manifest {
  const m = parseChecked<Manifest>(Manifest, bytes, what);
  const paths = new Set(m.files.map((f) => f.path));
  for (const f of m.files) {
    const expected = Math.ceil(f.size / m.chunkBytes);
    if (f.chunks.length !== expected)
      throw new ManifestError(`${what}: ${f.path} lists ${f.chunks.length} chunk hashes, its size needs ${expected}`);
  }
  if (paths.size !== m.files.length) throw new ManifestError(`${what} lists a file twice`);
  for (const h of m.history)
    if (!paths.has(h.path)) throw new ManifestError(`${what}: history month ${h.month} names a file it does not list`);
  if (releaseId(m.month, m.files) !== m.release)
    throw new ManifestError(`${what}: its release id ${m.release} does not match its files`);
  return m;
}

export function parseLatest(bytes: Buffer, what: string): Latest {
  return parseChecked<Latest>(Latest, bytes, what);
}

/** Canonical bytes of a JSON document we sign: two-space indented, one trailing newline. */
export const jsonBytes = (value: unknown): Buffer => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
