// Who is asking, and over what: the socket says, unless the operator runs a reverse proxy in
// front and says so (--trust-proxy); then X-Forwarded-For / X-Forwarded-Proto say. These
// answers feed the login throttle, the request log, Secure cookies and HSTS.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** One year; sent only on answers that went out over https. */
export const HSTS = 'max-age=31536000';

export interface ProxyTrust {
  /** Believe X-Forwarded-* (only when a proxy you run is the only way in). Default false. */
  trustProxy?: boolean;
  /** The public base URL; behind a trusted proxy an https one means the site is https. */
  baseUrl: string;
}

/** Addresses a proxy on this very host appends for the hop before it (Caddy in front of nginx). */
function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

/** A header node may have joined from several lines (it joins X-Forwarded-* with ", "). */
function headerList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value.join(',') : value).split(',').map((s) => s.trim());
}

/**
 * The client's address. Without trustProxy: the socket's peer, whatever the headers say.
 * With it: the right-most X-Forwarded-For entry that is not one of our own loopback hops.
 * Proxies append the address they saw, so everything left of that entry came from the client
 * and may be forged; the right-most is what our proxy saw. An entry that is not an address
 * stops the walk (nothing left of it can be believed); with no usable entry, the peer.
 * `Forwarded` (RFC 7239) is ignored on purpose: nginx passes a client's one through untouched.
 */
export function clientIp(req: IncomingMessage, trustProxy = false, peer = req.socket.remoteAddress): string {
  if (trustProxy) {
    const hops = headerList(req.headers['x-forwarded-for']);
    let found: string | undefined;
    for (let i = hops.length - 1; i >= 0; i--) {
      if (isIP(hops[i]!) === 0) break;
      found = hops[i];
      if (!isLoopback(found!)) break;
    }
    if (found) return found;
  }
  return peer ?? '-';
}

/**
 * Whether the request reached us over https: a TLS socket, or, behind a trusted proxy, the
 * proxy's right-most X-Forwarded-Proto says https or the public URL is https.
 * Without trustProxy the header is a client's word and counts for nothing.
 */
export function isHttps(req: IncomingMessage, trust: ProxyTrust): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!trust.trustProxy) return false;
  if (trust.baseUrl.startsWith('https:')) return true;
  return headerList(req.headers['x-forwarded-proto']).at(-1)?.toLowerCase() === 'https';
}
