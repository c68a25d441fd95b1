// The metrics listener: GET /metrics in Prometheus's text format on its own address and port
// (--metrics-host, --metrics-port), never on the public one: what it shows (routes, volumes,
// quota refusals) is for the operator, and a scrape must not count against the API's bounds.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostPort } from '../../lib/uri.ts';

export interface Scrape {
  /** The text format of every metric (a cluster primary: the sum over its workers). */
  metrics(): Promise<string>;
  contentType: string;
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsListener(host: string, port: number, scrape: Scrape): Promise<MetricsListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return void res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('method not allowed\n');
    scrape.metrics().then(
      (body) => res.writeHead(200, { 'Content-Type': scrape.contentType, 'Cache-Control': 'no-store' }).end(body),
      (err: unknown) =>
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${hostPort(addr.address, addr.port)}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
