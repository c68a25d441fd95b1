// Which addresses a webhook may not reach (SSRF, docs/webhooks.md): this machine, private and
// carrier networks, link-local (cloud metadata at 169.254.169.254), multicast and reserved ranges.
// Checked at registration and again on the address each connection actually uses.
import net from 'node:net';

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** Why `ip` may not be reached (a Portuguese phrase for the web app), or null when it may. */
export function forbiddenAddress(ip: string): string | null {
  const family = net.isIP(ip);
  if (family === 0) return 'endereço inválido';
  let v4 = family === 4 ? ip : null;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1, or NAT64 64:ff9b::7f00:1) reaches that IPv4 host.
  if (family === 6) v4 = embeddedIpv4(ip);
  if (v4 !== null && blocked.check(v4, 'ipv4')) return `endereço de rede privada ou local (${ip})`;
  if (family === 6 && v4 === null && blocked.check(ip, 'ipv6')) return `endereço de rede privada ou local (${ip})`;
  return null;
}

function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/.exec(lower);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
