// Where a webhook may POST: the URL's rules and the addresses its host resolves to (SSRF,
// docs/webhooks.md). The operator's switches (`serve --webhooks-allow-http`,
// `--webhooks-allow-private`) relax them, for receivers on this machine or the local network.
import dns from 'node:dns';
import net from 'node:net';
import { forbiddenAddress } from './address.ts';
import { WebhookError } from './errors.ts';

export interface DestinationPolicy {
  /** http:// URLs accepted (default: https only). */
  allowHttp?: boolean;
  /** Loopback, private, link-local... addresses accepted (default: refused). */
  allowPrivate?: boolean;
}

export const MAX_URL_LENGTH = 2000;

/** The URL as it will be stored, or a WebhookError saying (in Portuguese) what is wrong with it. */
export function parseWebhookUrl(raw: string, policy: DestinationPolicy): URL {
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH)
    throw new WebhookError('invalid_url', `A URL tem mais de ${MAX_URL_LENGTH} caracteres.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookError('invalid_url', 'URL inválida: use o formato https://exemplo.com.br/caminho.');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new WebhookError(
      'invalid_url',
      policy.allowHttp ? 'A URL deve começar com https:// ou http://.' : 'A URL deve começar com https://.',
    );
  }
  if (url.username || url.password) throw new WebhookError('invalid_url', 'A URL não pode conter usuário ou senha.');
  url.hash = '';
  return url;
}

/** Hostname without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Registration: every address the host resolves to now must be allowed. */
export async function checkDestination(url: URL, policy: DestinationPolicy): Promise<void> {
  if (policy.allowPrivate) return;
  const host = hostOf(url);
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new WebhookError('invalid_url', `Não foi possível resolver o endereço “${host}”.`);
    }
  }
  for (const a of addresses) {
    const why = forbiddenAddress(a);
    if (why) throw new WebhookError('forbidden_destination', `Destino não permitido: ${why}.`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for net/tls.connect that refuses forbidden addresses: the check happens on the
 * address the socket will use, so a name that resolved to a public address at registration and
 * to 127.0.0.1 now (DNS rebinding) is still refused. IP literals never reach a lookup: the sender
 * checks them itself (checkLiteral).
 */
export function validatingLookup(policy: DestinationPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as dns.LookupAddress[];
      const bad = policy.allowPrivate ? null : list.map((a) => forbiddenAddress(a.address)).find((w) => w !== null);
      if (bad)
        return callback(Object.assign(new Error(`destination refused: ${bad}`), { code: 'EWEBHOOKFORBIDDEN' }), '');
      if (list.length === 0)
        return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** At send time, for a URL whose host is an IP literal (no lookup happens for those). */
export function literalRefusal(url: URL, policy: DestinationPolicy): string | null {
  if (policy.allowPrivate) return null;
  const host = hostOf(url);
  return net.isIP(host) ? forbiddenAddress(host) : null;
}
