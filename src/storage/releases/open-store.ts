// A release store from what the operator typed: a folder, http(s)://, or s3://bucket/prefix.
import { openDirStore } from './dir-store.ts';
import { openHttpStore } from './http-store.ts';
import type { ReleaseStore } from './store.ts';
import { DEFAULT_NET, type NetOptions } from '../transfer/http.ts';

export async function openStore(
  location: string,
  opts: { connections?: number; net?: Partial<NetOptions> } = {},
): Promise<ReleaseStore> {
  if (/^https?:\/\//i.test(location))
    return openHttpStore(location, { connections: opts.connections ?? 4, net: { ...DEFAULT_NET, ...opts.net } });
  if (/^s3:\/\//i.test(location)) {
    // Loaded on use: the AWS SDK is large, and only s3:// needs it.
    const { openS3Store } = await import('./s3-store.ts');
    return openS3Store(location);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) && !location.startsWith('file://'))
    throw new Error(`${location}: a release location is a folder, an http(s):// URL or s3://bucket/prefix`);
  return openDirStore(location.startsWith('file://') ? new URL(location).pathname : location);
}
