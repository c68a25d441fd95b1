// One line per request. Tokens must never reach a log: anything shaped like a token is redacted
// wherever it stands in the line (query, path segment, any encoding), the api_token query value
// is redacted whatever it holds, and the Authorization header is never logged.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TOKEN_IN_TEXT } from '../../domain/metering/token-format.ts';
import { clientIp } from './forwarded.ts';
import { decodeSafe } from '../../lib/uri.ts';

export type LogFn = (line: string) => void;

const REDACTED = '[REDACTED]';
const TOKEN_SEGMENT = /^\/t\/[^/?#]*/;

/** The request target with the value of every api_token parameter, and a /t/{token}/ prefix, replaced. */
export function redactUrl(url: string): string {
  // The compat routes' /t/{token}/ prefix: whatever the segment holds (a mistyped token too).
  if (url.startsWith('/t/')) url = url.replace(TOKEN_SEGMENT, `/t/${REDACTED}`);
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&');
  for (let i = 0; i < parts.length; i++) {
    const eq = parts[i].indexOf('=');
    const key = eq < 0 ? parts[i] : parts[i].slice(0, eq);
    if (decodeSafe(key.replace(/\+/g, ' ')).trim().toLowerCase() === 'api_token') parts[i] = `${key}=${REDACTED}`;
  }
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** The line with everything shaped like an API token replaced. */
export function redactTokens(line: string): string {
  return line.replace(TOKEN_IN_TEXT, REDACTED);
}

/** Who made the request, set by the API route once a token is recognised. */
const accounts = new WeakMap<ServerResponse, number>();

export function setLogAccount(res: ServerResponse, accountId: number): void {
  accounts.set(res, accountId);
}

/** ISO time of the last line: consecutive lines mostly share their millisecond. */
let lastMs = 0;
let lastIso = '';
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

const CONTROL = /[\x00-\x1f\x7f]/;
const CONTROLS = /[\x00-\x1f\x7f]/g;

/** Told when a response is done, with its duration (the metrics: one 'close' listener serves both). */
export type OnResponseDone = (res: ServerResponse, ms: number) => void;

/** Logs the request when its response is done (or the client went away). */
export function logRequest(
  req: IncomingMessage,
  res: ServerResponse,
  log: LogFn,
  trustProxy = false,
  done?: OnResponseDone,
): void {
  const start = performance.now();
  const url = req.url ?? '';
  // Read now: a socket already destroyed at the end (an aborted request) no longer knows its peer.
  const peer = req.socket.remoteAddress;
  res.once('close', () => {
    const ms = performance.now() - start;
    done?.(res, ms);
    const status = res.writableFinished ? String(res.statusCode) : `${res.statusCode}-aborted`;
    // Redacted and cleaned only now, off the request's critical path. Control characters
    // cannot forge extra log lines.
    let target = redactTokens(redactUrl(url));
    if (CONTROL.test(target)) target = target.replace(CONTROLS, '?');
    log(
      `${isoNow()} ${clientIp(req, trustProxy, peer)} ${req.method ?? '-'} ${target} ${status} ${ms.toFixed(1)}ms account=${accounts.get(res) ?? '-'}`,
    );
  });
}

/**
 * A stdout writer that gathers the lines of one event-loop turn into one write: a synchronous
 * write per request (stdout to a file or pipe is synchronous on Linux) costs real throughput.
 */
export function bufferedWriter(stream: NodeJS.WritableStream = process.stdout): LogFn & { flush(): void } {
  let buf: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buf.length === 0) return;
    const out = buf.join('');
    buf = [];
    stream.write(out);
  };
  const fn = ((line: string) => {
    buf.push(`${line}\n`);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as LogFn & { flush(): void };
  fn.flush = flush;
  return fn;
}
