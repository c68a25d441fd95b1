// A webhook's signing secret and the signature every delivery carries (docs/webhooks.md):
// X-CNPJ-API-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>, the key being
// the whole secret text as shown (with its whsec_ prefix).
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** 32 random bytes, base64url: 49 characters. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** `timestamp`: unix seconds, the value of X-CNPJ-API-Timestamp. */
export function signature(secret: string, timestamp: number, body: string): string {
  return 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}
