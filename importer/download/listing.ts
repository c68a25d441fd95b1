// Folder listings: a WebDAV PROPFIND multistatus (the Nextcloud share) or an autoindex HTML page
// (Apache, nginx, `python3 -m http.server`). Regexes, not an XML/HTML library: we need hrefs and
// sizes only, and both formats are machine-generated.

import { isMonth } from '../../src/lib/month.ts';
import { decodeSafe } from '../../src/lib/uri.ts';

export interface RemoteEntry {
  /** Decoded last path segment, without a trailing slash. */
  name: string;
  /** Absolute URL of the entry (folders end in '/'). */
  url: string;
  isDir: boolean;
  /** Exact size in bytes when the listing gives it (WebDAV getcontentlength). */
  size?: number;
}

/** The body sent with PROPFIND: only the properties we read, to keep Nextcloud's answer small. */
export const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?>\n' +
  '<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/></d:prop></d:propfind>';

// Any namespace prefix (or none: a default xmlns="DAV:" is legal too).
const P = '(?:[A-Za-z_][\\w.-]*:)?';

function elements(xml: string, local: string): string[] {
  // Opening tag not self-closed, then the content up to the matching closing tag.
  const re = new RegExp(`<${P}${local}(?:\\s[^>]*?)?(?<!/)>([\\s\\S]*?)</${P}${local}\\s*>`, 'g');
  return [...xml.matchAll(re)].map((m) => m[1]);
}

function decodeXml(s: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(s);
  if (cdata) return cdata[1];
  return s
    .trim()
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(parseInt(d, 10)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Normalised decoded path, for comparing "is this the folder itself?". */
function pathKey(u: URL): string {
  return decodeSafe(u.pathname).replace(/\/+$/, '');
}

function lastSegment(u: URL): string {
  const parts = pathKey(u).split('/');
  return parts[parts.length - 1] ?? '';
}

/** Entries of a PROPFIND Depth: 1 answer, without the folder itself. */
export function parseMultistatus(xml: string, folderUrl: string): RemoteEntry[] {
  const base = new URL(folderUrl);
  const self = pathKey(base);
  const out: RemoteEntry[] = [];
  for (const response of elements(xml, 'response')) {
    const href = elements(response, 'href')[0];
    if (href === undefined) continue;
    const url = new URL(decodeXml(href), base);
    if (pathKey(url) === self) continue;
    const isDir = new RegExp(`<${P}collection\\b`).test(response) || url.pathname.endsWith('/');
    // Several propstat blocks may exist (200 and 404); a value only appears in the 200 one.
    const lenText = elements(response, 'getcontentlength')
      .map(decodeXml)
      .find((t) => /^\d+$/.test(t));
    const name = lastSegment(url);
    if (!name) continue;
    if (isDir && !url.pathname.endsWith('/')) url.pathname += '/';
    out.push({ name, url: url.href, isDir, size: !isDir && lenText !== undefined ? Number(lenText) : undefined });
  }
  return out;
}

/** Links of an autoindex page that point to direct children of the page's folder. */
export function parseAutoindex(html: string, pageUrl: string): RemoteEntry[] {
  const base = new URL(pageUrl);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const seen = new Set<string>();
  const out: RemoteEntry[] = [];
  for (const m of html.matchAll(/<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const raw = decodeXml(m[1] ?? m[2] ?? m[3] ?? '');
    // Sort links (Apache "?C=N;O=D"), anchors, parent links and other schemes are not entries.
    if (
      !raw ||
      raw.startsWith('?') ||
      raw.startsWith('#') ||
      (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^https?:/i.test(raw))
    )
      continue;
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      continue;
    }
    if (url.origin !== base.origin || url.search) continue;
    url.hash = '';
    const isDir = url.pathname.endsWith('/');
    const rel = url.pathname.slice(base.pathname.length);
    // A direct child: under the folder, exactly one more segment.
    if (!url.pathname.startsWith(base.pathname) || !rel || rel.replace(/\/$/, '').includes('/')) continue;
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    const name = lastSegment(url);
    if (!name || name === '.' || name === '..') continue;
    out.push({ name, url: url.href, isDir });
  }
  return out;
}

/** The `YYYY-MM` folders of a listing, oldest first. */
export function monthsOf(entries: RemoteEntry[]): string[] {
  return [...new Set(entries.filter((e) => e.isDir && isMonth(e.name)).map((e) => e.name))].sort();
}
