// Percent-decoding of text that comes from outside (request paths and queries, server listings), and
// how a host and port are written in a URL.

/** decodeURIComponent, or the text unchanged when it is not valid percent-encoding. */
export function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `host:port`, an IPv6 address in brackets as URLs and logs write it (`[::1]:8080`). */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
