// `cnpj-api probe`: asks the server on this machine whether it is ready (GET /readyz) and exits 0
// when it is. It is the health check of the container image, which has no shell or curl: compose's
// `healthcheck`, podman's `--health-cmd`, a Kubernetes exec probe (docs/container.md).
import type { CommandModule } from 'yargs';
import { request } from 'undici';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../lib/config.ts';
import { hostPort } from '../../lib/uri.ts';
import { CliError } from '../errors.ts';
import { numberOption, PORT_RULE, type GlobalArgs } from '../options.ts';

interface Args extends GlobalArgs {
  host: string;
  port: number;
  url?: string;
  timeout: number;
}

export const probeCommand: CommandModule<GlobalArgs, Args> = {
  command: 'probe',
  describe:
    "check that the server here is ready (GET /readyz): exit 0 when it answers 200, 1 otherwise; the container image's health check",
  builder: (y) =>
    y
      .option('host', { type: 'string', default: DEFAULT_HOST, describe: "the server's address" })
      .option('port', numberOption('port', PORT_RULE, { default: DEFAULT_PORT, describe: "the server's port" }))
      .option('url', { type: 'string', describe: 'the readiness URL, instead of --host and --port' })
      .option(
        'timeout',
        numberOption('timeout', { min: 0.1, max: 300 }, { default: 5, describe: 'seconds to wait for the answer' }),
      ),
  handler: async (argv) => {
    const url = argv.url ?? `http://${hostPort(argv.host, argv.port)}/readyz`;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new CliError(`--url: not a URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new CliError(`--url: not an http(s) URL: ${url}`);
    let status: number;
    let body: string;
    try {
      // One deadline over connecting, the headers and the body.
      const res = await request(parsed, {
        method: 'GET',
        signal: AbortSignal.timeout(Math.round(argv.timeout * 1000)),
      });
      status = res.statusCode;
      body = (await res.body.text()).slice(0, 2000);
    } catch (err) {
      const e = err as Error & { code?: string };
      const why = e.name === 'TimeoutError' ? `no answer within ${argv.timeout} s` : (e.code ?? e.message);
      throw new CliError(`not ready: ${url}: ${why}`);
    }
    if (status === 200) {
      console.log(`ready: ${url}`);
      return;
    }
    throw new CliError(`not ready: ${url} answered ${status}${reasonOf(body)}`);
  },
};

/** The `reason` a node's 503 names (docs/fleet.md), when the body is our JSON. */
function reasonOf(body: string): string {
  try {
    const reason = (JSON.parse(body) as { reason?: unknown }).reason;
    return typeof reason === 'string' ? ` (${reason})` : '';
  } catch {
    return '';
  }
}
