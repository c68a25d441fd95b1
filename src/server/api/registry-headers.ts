// Which data answered: every registry answer names the month and the release (or, for a month
// imported here and never published, the local snapshot id) of the snapshot it was read from.
import type { ServerResponse } from 'node:http';
import type { RegistryInfo } from '../../domain/registry/reader.ts';
import type { RouteHandler } from '../http/router.ts';

export const REGISTRY_MONTH_HEADER = 'X-Registry-Month';
export const REGISTRY_RELEASE_HEADER = 'X-Registry-Release';

const cache = new WeakMap<RegistryInfo, Record<string, string>>();

/**
 * The two headers of `info` as an object for writeHead (no setHeader: the lookup's answer keeps
 * node's one-object fast path), made once per served snapshot.
 */
export function registryHeaders(info: RegistryInfo | null): Record<string, string> {
  if (info === null) return {};
  let h = cache.get(info);
  if (h === undefined) {
    h = { [REGISTRY_MONTH_HEADER]: info.month, [REGISTRY_RELEASE_HEADER]: info.release ?? info.id };
    cache.set(info, h);
  }
  return h;
}

/** Names the snapshot in `info` on `res`; nothing when no snapshot is served. Call it where the snapshot is read. */
export function setRegistryHeaders(res: ServerResponse, info: RegistryInfo | null): void {
  if (info === null) return;
  res.setHeader(REGISTRY_MONTH_HEADER, info.month);
  res.setHeader(REGISTRY_RELEASE_HEADER, info.release ?? info.id);
}

/**
 * A registry route's handler that names the served snapshot on every answer it gives (errors
 * included). The lookup and the compat shapes, the hot paths, pass registryHeaders() to the
 * answer they write instead, at the moment they read the snapshot.
 */
export function registryRoute(registry: { readonly info: RegistryInfo | null }, handler: RouteHandler): RouteHandler {
  return (req, res) => {
    setRegistryHeaders(res, registry.info);
    return handler(req, res);
  };
}
