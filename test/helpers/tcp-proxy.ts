// A TCP proxy on loopback for fault tests: forwards to a target port, can cut every connection
// once the bytes it has sent back reach a budget (a link that drops mid-file), and can throttle
// the answers (so a test can kill a transfer part-way). Counts what it forwarded.
import net from 'node:net';

export interface ProxyOptions {
  /** Cut the connections that carry these total answer bytes (the first `cuts` cuts only). */
  cutAfterBytes?: number;
  cuts?: number;
  /** Answer bytes per second on each connection; unthrottled when absent. */
  bytesPerSecond?: number;
}

export interface TcpProxy {
  readonly url: string;
  /** Answer bytes forwarded so far. */
  readonly bytes: number;
  /** Connections cut so far. */
  readonly cut: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, opts: ProxyOptions = {}): Promise<TcpProxy> {
  let bytes = 0;
  let cut = 0;
  let sinceCut = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => (sockets.delete(client), upstream.destroy()));
    upstream.on('close', () => (sockets.delete(upstream), client.destroy()));
    client.on('error', drop);
    upstream.on('error', drop);
    client.pipe(upstream);
    upstream.on('data', (data: Buffer) => {
      const budget = opts.cutAfterBytes;
      if (budget !== undefined && cut < (opts.cuts ?? 1) && sinceCut + data.length >= budget) {
        const part = data.subarray(0, Math.max(0, budget - sinceCut));
        client.write(part);
        bytes += part.length;
        sinceCut = 0;
        cut++;
        drop();
        return;
      }
      sinceCut += data.length;
      bytes += data.length;
      const ok = client.write(data);
      if (opts.bytesPerSecond) {
        upstream.pause();
        setTimeout(() => upstream.resume(), (data.length / opts.bytesPerSecond) * 1000);
      } else if (!ok) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get bytes() {
      return bytes;
    },
    get cut() {
      return cut;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
