// A failed listen as one sentence for the operator, and a port check before work that needs the port.
import net from 'node:net';
import { CliError } from './errors.ts';

/** A CliError for the usual listen failures (port taken, privileged port, foreign address); other errors unchanged. */
export function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new CliError(`port ${port} on ${host} is already in use`);
  if (code === 'EACCES') return new CliError(`no permission to listen on ${host}:${port}`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new CliError(`cannot listen on ${host}: not an address of this machine`);
  return err;
}

/** Throws listenError() when host:port cannot be bound right now (port 0 always can). */
export async function assertCanListen(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (err) {
    throw listenError(err, host, port);
  }
  await new Promise((resolve) => probe.close(resolve));
}
