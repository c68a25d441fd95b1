// Small request/response helpers for the web pages: polka hands us node's own objects.
import type { ServerResponse } from 'node:http';
import type { RouteRequest } from '../http/router.ts';

export type Req = RouteRequest;
export type Res = ServerResponse;

/** No inline script or style anywhere: the copy button and the stylesheet are files of our own. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

export function setSecurityHeaders(res: Res): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
}

export interface SendOptions {
  status?: number;
  /** Pages that show a secret must never be kept by the browser or a proxy. */
  noStore?: boolean;
}

export function sendHtml(res: Res, html: string, opts: SendOptions = {}): void {
  res.statusCode = opts.status ?? 200;
  setSecurityHeaders(res);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // Pages depend on the session, so no shared cache ever keeps them.
  res.setHeader('Cache-Control', opts.noStore ? 'no-store' : 'private, no-cache');
  if (opts.noStore) res.setHeader('Pragma', 'no-cache');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.end(html);
}

/** 303 so the browser follows with a GET: post/redirect/get. */
export function redirect(res: Res, location: string): void {
  res.statusCode = 303;
  setSecurityHeaders(res);
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

// Where a request comes from, under the operator's proxy trust rules.
export { clientIp, isHttps } from '../http/forwarded.ts';

export function parseCookies(req: Req): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || out.has(name)) continue;
    try {
      out.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // A cookie we cannot decode is one we did not set.
    }
  }
  return out;
}

export interface CookieOptions {
  maxAgeSeconds: number;
  secure: boolean;
  sameSite?: 'Lax' | 'Strict';
}

export function setCookie(res: Res, name: string, value: string, opts: CookieOptions): void {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    'HttpOnly',
    `SameSite=${opts.sameSite ?? 'Lax'}`,
    `Max-Age=${Math.max(0, Math.floor(opts.maxAgeSeconds))}`,
  ];
  if (opts.maxAgeSeconds <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (opts.secure) parts.push('Secure');
  const prev = res.getHeader('Set-Cookie');
  const list = Array.isArray(prev) ? prev : prev ? [String(prev)] : [];
  res.setHeader('Set-Cookie', [...list, parts.join('; ')]);
}

export class BodyTooLargeError extends Error {}

/** Reads an application/x-www-form-urlencoded body (our forms are tiny; 16 KiB is plenty). */
export async function readForm(req: Req, limit = 16 * 1024): Promise<URLSearchParams> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  // Refused before reading when the client says so up front; otherwise counted as it arrives.
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new BodyTooLargeError('request body too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLargeError('request body too large');
    chunks.push(chunk as Buffer);
  }
  if (type !== 'application/x-www-form-urlencoded') return new URLSearchParams();
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
