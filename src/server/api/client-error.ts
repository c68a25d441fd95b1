// Errors node meets before a request object exists (the http server's 'clientError'): a
// malformed request line or header, headers over the size limit, a request that does not
// arrive in time. Node's own answer has an empty body; ours is the JSON error of docs/errors.md,
// and the connection closes.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS, type ErrorKey } from '../../domain/api-errors.ts';
import { rawErrorResponse } from './errors.ts';
import type { LogFn } from '../http/log.ts';

/** Node's codes that are not a plain 400. Any other HPE_* is a malformed request. */
const KEYS: Record<string, ErrorKey> = {
  HPE_HEADER_OVERFLOW: 'headers_too_large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'request_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/**
 * After the answer the connection is still read (and the bytes dropped) for this long before
 * it is destroyed: closing a socket with unread input sends a reset, which can make the client
 * lose the answer it has not read yet.
 */
const LINGER_MS = 1000;
/** Whatever happens (answers ahead that are never read), the connection is gone by then. */
const CLOSE_WITHIN_MS = 10_000;

type Answering = { _httpMessage?: ServerResponse | null };

export function clientErrorHandler(log: LogFn): (err: Error & { code?: string }, socket: Socket) => void {
  const seen = new WeakSet<Socket>();
  return (err, socket) => {
    // The parser reports the same error again for every further chunk.
    if (seen.has(socket)) return;
    seen.add(socket);
    const code = err.code ?? '';
    if (!(code.startsWith('HPE_') || code in KEYS) || !socket.writable) {
      // A reset or a broken pipe: nobody to answer.
      socket.destroy();
      return;
    }
    const key = KEYS[code] ?? 'bad_request';
    log(`client error ${code}: answering ${ERRORS[key].status}`);
    setTimeout(() => socket.destroy(), CLOSE_WITHIN_MS).unref();
    const answer = () => {
      // The answer node is sending on this connection (pipelining), if any. A whole one goes
      // first; one not started yet is replaced by ours, as node does; one half-written cannot
      // be followed by anything.
      const current = (socket as Answering)._httpMessage;
      if (current?.writableEnded) {
        current.once('finish', answer);
        return;
      }
      if (current?.headersSent || !socket.writable) {
        socket.destroy();
        return;
      }
      socket.end(rawErrorResponse(key));
      socket.once('end', () => socket.destroy());
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
    answer();
  };
}
