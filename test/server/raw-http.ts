// HTTP/1.1 over a raw socket (net.connect), for what fetch and http.request cannot send or show:
// malformed requests, pipelining, answers sent before the request is complete.
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** The status line and the header lines as sent (order and case kept), without the blank line. */
  head: string;
}

export interface RawConnection {
  socket: net.Socket;
  write(data: string | Buffer): void;
  /** The next `n` answers, in order (bodies by Content-Length). */
  responses(n: number, timeoutMs?: number): Promise<RawResponse[]>;
  /** Resolves once the server closed the connection (true), or false after `timeoutMs`. */
  closed(timeoutMs?: number): Promise<boolean>;
  end(): void;
}

export async function rawConnect(url: string): Promise<RawConnection> {
  const u = new URL(url);
  const socket = net.connect({ host: u.hostname, port: Number(u.port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  let buf = Buffer.alloc(0);
  let isClosed = false;
  let wake = () => {};
  socket.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    wake();
  });
  socket.on('close', () => {
    isClosed = true;
    wake();
  });
  const next = (): RawResponse | null => {
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const head = buf.subarray(0, end).toString('latin1');
    const [statusLine, ...lines] = head.split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) {
      const i = l.indexOf(':');
      headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (buf.length < end + 4 + length) return null;
    const body = buf.subarray(end + 4, end + 4 + length).toString('utf8');
    buf = buf.subarray(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body, head };
  };
  const waitFor = <T>(ready: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        wake = () => {};
        fn();
      };
      wake = () => {
        try {
          const v = ready();
          if (v !== undefined) settle(() => resolve(v));
        } catch (err) {
          settle(() => reject(err));
        }
      };
      wake();
    });
  return {
    socket,
    write: (data) => socket.write(data),
    async responses(n, timeoutMs = 5000) {
      const out: RawResponse[] = [];
      return waitFor(
        () => {
          for (let r = next(); r; r = out.length < n ? next() : null) out.push(r);
          if (out.length >= n) return out;
          if (isClosed) throw new Error(`connection closed after ${out.length} of ${n} answers`);
          return undefined;
        },
        timeoutMs,
        `${n} answers (got ${out.length})`,
      );
    },
    closed(timeoutMs = 5000) {
      return waitFor(() => (isClosed ? true : undefined), timeoutMs, 'close').catch(() => false);
    },
    end: () => socket.destroy(),
  };
}
