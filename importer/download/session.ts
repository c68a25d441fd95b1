// A download session: the parsed sources (the month folders, the regime share) and one shared
// connection pool, for `download` and `update` alike.
import type { Dispatcher } from 'undici';
import { DEFAULT_NET, describeError, makeAgent, type NetOptions } from '../../src/storage/transfer/http.ts';
import type { DownloadOptions } from './options.ts';
import type { RemoteCtx } from './remote.ts';
import { defaultRegimeSource, defaultSource, parseSource, type Source } from './servers.ts';

export interface DownloadSession {
  agent: Dispatcher;
  net: NetOptions;
  log: (line: string) => void;
  source: Source;
  regime: Source | null;
  parallel: number;
  close(): Promise<void>;
}

/** Parses the options into sources and one shared connection pool. */
export function openSession(
  opts: Pick<DownloadOptions, 'source' | 'regimeSource' | 'parallel' | 'net' | 'log'>,
): DownloadSession {
  const net = { ...DEFAULT_NET, ...opts.net };
  const parallel = Math.max(1, Math.floor(opts.parallel ?? 3));
  const source = parseSource(opts.source || defaultSource());
  const regimeSpec = opts.regimeSource || defaultRegimeSource();
  const regime = regimeSpec === 'none' ? null : parseSource(regimeSpec);
  const agent = makeAgent(net, parallel);
  return {
    agent,
    net,
    source,
    regime,
    parallel,
    log: opts.log ?? ((line) => process.stderr.write(`${line}\n`)),
    close: () => agent.close(),
  };
}

export function remoteCtx(s: DownloadSession, note: (line: string) => void): RemoteCtx {
  return {
    agent: s.agent,
    net: s.net,
    onRetry: (what, err, delay) => note(`${what}: ${describeError(err)}; retrying in ${(delay / 1000).toFixed(1)} s`),
  };
}
