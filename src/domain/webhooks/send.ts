// One attempt at a delivery: a signed POST through undici (docs/webhooks.md). Timeouts on connect,
// headers and body; redirects are not followed (a 3xx is a failure); the answer's body is read up
// to a bound and thrown away. Forbidden destinations are refused on the address actually used.
import { Agent, request } from 'undici';
import { literalRefusal, validatingLookup, type DestinationPolicy } from './destination.ts';
import type { AttemptOutcome, DueDelivery } from './attempts.ts';
import { signature } from './signing.ts';

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The whole attempt at most (an answer dripping slowly); a delivery's claim outlasts it (attempts.ts). */
export const ATTEMPT_MAX_MS = ATTEMPT_TIMEOUT_MS * 3;
/**
 * How long a worker's claim on a delivery holds (attempts.ts): the longest attempt, and 15 s for
 * recording its outcome and for clock skew between nodes. A node killed mid-attempt delays that
 * delivery by at most this long; then another node sends it again (same id and body).
 */
export const LEASE_MS = ATTEMPT_MAX_MS + 15_000;
const MAX_ANSWER_BYTES = 64 * 1024;
const USER_AGENT = 'cnpj-api-webhooks/1';

/** The worker's own connection pool, separate from anything else in the process. */
export function webhookAgent(policy: DestinationPolicy, timeoutMs = ATTEMPT_TIMEOUT_MS): Agent {
  return new Agent({
    connect: { timeout: timeoutMs, lookup: validatingLookup(policy) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
    connections: 2,
  });
}

export async function sendDelivery(
  agent: Agent,
  d: DueDelivery,
  policy: DestinationPolicy,
  now: Date,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  let url: URL;
  try {
    url = new URL(d.url);
  } catch {
    return { ok: false, statusCode: null, error: 'invalid URL' };
  }
  if (url.protocol === 'http:' && !policy.allowHttp)
    return { ok: false, statusCode: null, error: 'http:// not allowed (--webhooks-allow-http)' };
  const refused = literalRefusal(url, policy);
  if (refused) return { ok: false, statusCode: null, error: `destination refused: ${refused}` };
  const timestamp = Math.floor(now.getTime() / 1000);
  // Each phase has its own timeout; this bounds the whole attempt (an answer dripping slowly).
  const whole = AbortSignal.any([signal, AbortSignal.timeout(ATTEMPT_MAX_MS)]);
  try {
    const res = await request(url, {
      dispatcher: agent,
      method: 'POST',
      signal: whole,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-cnpj-api-delivery': d.id,
        'x-cnpj-api-timestamp': String(timestamp),
        'x-cnpj-api-signature': signature(d.secret, timestamp, d.body),
      },
      body: d.body,
    });
    try {
      await res.body.dump({ limit: MAX_ANSWER_BYTES });
    } catch {
      // The status is what counts; a body that breaks off changes nothing.
    }
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return { ok, statusCode: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}` };
  } catch (err) {
    // Stopping the server: no attempt to record, the delivery is sent again at the next start.
    if (signal.aborted) throw err;
    if (whole.aborted) return { ok: false, statusCode: null, error: 'timeout: the attempt took too long' };
    const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
    const code = e.code ?? e.cause?.code;
    const text = `${code ? `${code}: ` : ''}${e.message}`.slice(0, 300);
    return { ok: false, statusCode: null, error: text };
  }
}
