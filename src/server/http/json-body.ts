// A JSON request body, read within a size bound: the media type first (nothing is read for a
// wrong one), then the bytes, counted as they arrive (a Content-Length over the bound is refused
// before any is read), then JSON.parse. Shape checks are the caller's.
import type { IncomingMessage } from 'node:http';

export type JsonBody =
  | { ok: true; value: unknown }
  | { ok: false; error: 'unsupported_media_type' | 'body_too_large' | 'invalid_body'; message?: string };

/**
 * `application/json`, with any parameters but a charset other than UTF-8 (JSON is UTF-8, RFC
 * 8259). `+json` types and a missing header are refused: the client must say what it sends.
 */
export function isJsonType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [type, ...params] = header.split(';');
  if (type!.trim().toLowerCase() !== 'application/json') return false;
  for (const p of params) {
    const [name, value = ''] = p.split('=');
    if (name!.trim().toLowerCase() === 'charset' && !/^"?utf-8"?$/i.test(value.trim())) return false;
  }
  return true;
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** Reads and parses the body; `limit` in bytes. */
export function readJsonBody(req: IncomingMessage, limit: number): Promise<JsonBody> {
  if (!isJsonType(req.headers['content-type'])) return Promise.resolve({ ok: false, error: 'unsupported_media_type' });
  const tooLarge: JsonBody = {
    ok: false,
    error: 'body_too_large',
    message: `O corpo da requisição é grande demais: o limite é de ${kb(limit)}.`,
  };
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve(tooLarge);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Stop keeping it; the rest is read and dropped while the 413 (with Connection: close) leaves.
      req.off('data', onData);
      req.resume();
      resolve(tooLarge);
    };
    req.on('data', onData);
    req.once('error', reject);
    req.once('end', () => {
      if (size > limit) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '')
        return resolve({
          ok: false,
          error: 'invalid_body',
          message: 'O corpo da requisição está vazio; envie um JSON.',
        });
      try {
        resolve({ ok: true, value: JSON.parse(text) as unknown });
      } catch {
        resolve({ ok: false, error: 'invalid_body', message: 'O corpo da requisição não é um JSON válido.' });
      }
    });
  });
}
