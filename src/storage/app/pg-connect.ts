// Every PostgreSQL connection of fleet mode is made here, so that a database URL means what it
// means to libpq: several hosts (`postgres://u@h1:5432,h2:5432/db`, or `?host=h1,h2&port=…`) and
// `target_session_attrs` (`any`, `read-write`, `primary`). The `pg` driver takes one host only; it
// connects where it is told, so the host is chosen here, before each new connection, and a
// connection that lands on a standby is refused. After a failover the next connection finds the
// new primary by itself (docs/fleet.md, "Failover").
import pg from 'pg';
import { hostPort } from '../../lib/uri.ts';

/** libpq's target_session_attrs values that make sense for a node, which writes. */
export const SESSION_ATTRS = ['any', 'read-write', 'primary'] as const;
export type SessionAttrs = (typeof SESSION_ATTRS)[number];

export interface PgHost {
  /** A name, an IP address (IPv6 without brackets) or a Unix socket directory (starts with /). */
  host: string;
  port: number;
}

export interface PgTarget {
  /** One single-host URL `pg` parses (user, password, database, ssl…), for the first host. */
  baseUrl: string;
  hosts: PgHost[];
  attrs: SessionAttrs;
}

/** A URL the rules below refuse, with the reason in the operator's words. */
export class DatabaseUrlError extends Error {}

const DEFAULT_PORT = 5432;

function parsePort(text: string, url: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) throw new DatabaseUrlError(`bad port "${text}" in ${url}`);
  return port;
}

/** `h1:5432,[::1]:5433,h3` → hosts; ports missing take `defaultPort`. */
function parseHostList(spec: string, defaultPort: number, url: string): PgHost[] {
  return spec.split(',').map((item) => {
    const m = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(item)!;
    const host = decodeURIComponent(m[1].replace(/^\[(.*)\]$/, '$1'));
    if (host === '') throw new DatabaseUrlError(`an empty host in "${spec}"`);
    return { host, port: m[2] === undefined || m[2] === '' ? defaultPort : parsePort(m[2], url) };
  });
}

/**
 * Reads `url` as libpq does: hosts and ports from the authority or from `host=`/`port=` (comma
 * lists; one port applies to every host), and target_session_attrs (default `any`). The URL
 * printed in errors never carries the password (it is not part of what is quoted).
 */
export function parseDatabaseUrl(url: string): PgTarget {
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(?:\?([^#]*))?$/i.exec(url);
  if (!m) throw new DatabaseUrlError('not a URL (expected postgres://user:password@host:5432/database)');
  const [, scheme, userinfo, hostSpec, path = '', query = ''] = m;
  const shown = `${scheme}://${hostSpec}${path}`;
  const params = new URLSearchParams(query);
  const attrs = (params.get('target_session_attrs') ?? 'any') as SessionAttrs;
  if (!SESSION_ATTRS.includes(attrs))
    throw new DatabaseUrlError(
      `target_session_attrs=${attrs} is not supported (a node writes: use read-write, primary or any)`,
    );
  const portParam = params.get('port');
  const portList = portParam === null ? [] : portParam.split(',').map((p) => parsePort(p, shown));
  let hosts: PgHost[];
  if (hostSpec !== '') {
    hosts = parseHostList(hostSpec, portList.length === 1 ? portList[0] : DEFAULT_PORT, shown);
  } else {
    const names = (params.get('host') ?? 'localhost').split(',');
    if (portList.length > 1 && portList.length !== names.length)
      throw new DatabaseUrlError(`${names.length} hosts but ${portList.length} ports in ${shown}`);
    hosts = names.map((host, i) => {
      if (host === '') throw new DatabaseUrlError(`an empty host in ${shown}`);
      return { host, port: portList.length === 0 ? DEFAULT_PORT : (portList[i] ?? portList[0]) };
    });
  }
  // What `pg` gets: the first host (replaced per connection below), no libpq-only parameters.
  for (const key of ['host', 'port', 'target_session_attrs']) params.delete(key);
  const first = hosts[0];
  params.set('host', first.host);
  params.set('port', String(first.port));
  const baseUrl = `${scheme}://${userinfo === undefined ? '' : `${userinfo}@`}${path || '/'}?${params}`;
  return { baseUrl, hosts, attrs };
}

/** How a host is named in logs and errors. */
export const hostName = (h: PgHost) => (h.host.startsWith('/') ? `${h.host}:${h.port}` : hostPort(h.host, h.port));

type Config = Omit<pg.ClientConfig, 'connectionString' | 'host' | 'port'>;

/** Points a client not yet connected at `h` (pg reads host and port when it connects). */
function aim(client: pg.Client, h: PgHost): void {
  const c = client as unknown as { host: string; port: number; connectionParameters: { host: string; port: number } };
  c.host = c.connectionParameters.host = h.host;
  c.port = c.connectionParameters.port = h.port;
}

/** Why a connected session does not suit `attrs`, or null when it does. */
async function unsuitable(client: pg.Client, attrs: SessionAttrs): Promise<string | null> {
  if (attrs === 'any') return null;
  const { rows } = await client.query<{ standby: boolean; read_only: string }>(
    "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only",
  );
  if (rows[0].standby) return 'a standby (in recovery)';
  if (attrs === 'read-write' && rows[0].read_only === 'on') return 'read-only';
  return null;
}

/** A connection failure the server code treats as "the database is unavailable" (SQLSTATE 08001). */
function unableToConnect(message: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code: '08001' });
}

/** Marks a failure on the host last chosen: the next connect searches every host, so try once more. */
const STALE_HOST = Symbol('stale host');
const staleHost = (err: unknown): boolean => (err as { [STALE_HOST]?: boolean } | null)?.[STALE_HOST] === true;
const markStale = (err: unknown): unknown => (err instanceof Error ? Object.assign(err, { [STALE_HOST]: true }) : err);

/**
 * Which host new connections go to: the one that last suited, tried first; when it fails, every
 * host in the URL's order, one probe connection each, until one suits. One search at a time.
 */
class HostChooser {
  private current: PgHost | null = null;
  private search: Promise<PgHost> | null = null;

  constructor(
    private readonly target: PgTarget,
    private readonly config: Config,
  ) {}

  get single(): boolean {
    return this.target.hosts.length === 1 && this.target.attrs === 'any';
  }

  async choose(): Promise<PgHost> {
    if (this.current) return this.current;
    this.search ??= this.find().finally(() => (this.search = null));
    return this.search;
  }

  /** The host `h` failed or no longer suits: the next connection searches again (true if it was in use). */
  forget(h: PgHost): boolean {
    if (this.current !== h) return false;
    this.current = null;
    return true;
  }

  private async find(): Promise<PgHost> {
    const why: string[] = [];
    for (const h of this.target.hosts) {
      const probe = new pg.Client({ ...this.config, connectionString: this.target.baseUrl });
      probe.on('error', () => {});
      aim(probe, h);
      try {
        await probe.connect();
        const problem = await unsuitable(probe, this.target.attrs);
        if (problem === null) return (this.current = h);
        why.push(`${hostName(h)}: ${problem}`);
      } catch (err) {
        const e = err as Error & { code?: string };
        why.push(`${hostName(h)}: ${e.message || e.code}`);
      } finally {
        await probe.end().catch(() => {});
      }
    }
    const wanted = this.target.attrs === 'any' ? 'accepts connections' : `is ${this.target.attrs}`;
    throw unableToConnect(`no database host ${wanted} (${why.join('; ')})`);
  }
}

/** A pg.Client class whose connect() goes to the host `chooser` picks and checks the session. */
function clientClass(chooser: HostChooser, attrs: SessionAttrs): typeof pg.Client {
  return class ChosenHostClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(
      callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void),
    ): Promise<pg.Client> | void {
      const done = this.connectChosen().then(() => this as pg.Client);
      if (!callback) return done;
      const cb = callback as (err: Error | null, c?: pg.Client) => void;
      done.then(
        (c) => cb(null, c),
        (err: Error) => cb(err),
      );
    }

    private async connectChosen(): Promise<void> {
      const h = await chooser.choose();
      aim(this, h);
      try {
        await super.connect();
      } catch (err) {
        throw chooser.forget(h) ? markStale(err) : err;
      }
      // A host that was the primary may have become a standby since it was chosen (a switchover).
      const problem = await unsuitable(this, attrs).catch((err: unknown) => (err as Error).message);
      if (problem !== null) {
        const stale = chooser.forget(h);
        await this.end().catch(() => {});
        const err = unableToConnect(`database host ${hostName(h)} is ${problem}`);
        throw stale ? markStale(err) : err;
      }
    }
  };
}

export type PgConnectOptions = Config;

/** A client for `url` (not connected), following its hosts and target_session_attrs. */
export function pgClient(url: string, options: PgConnectOptions = {}): pg.Client {
  const target = parseDatabaseUrl(url);
  const chooser = new HostChooser(target, options);
  if (chooser.single) return new pg.Client({ ...options, connectionString: url });
  const Client = clientClass(chooser, target.attrs);
  return new Client({ ...options, connectionString: target.baseUrl });
}

/**
 * A pool for `url` whose every new connection follows its hosts and target_session_attrs. A new
 * connection that fails on the host in use (the primary just died) is tried once more at once,
 * which searches every host: the first call after a failover finds the new primary rather than
 * failing.
 */
export function pgPool(url: string, options: pg.PoolConfig = {}): pg.Pool {
  const target = parseDatabaseUrl(url);
  const { connectionString: _ignored, host: _h, port: _p, ...config } = options;
  const chooser = new HostChooser(target, config);
  if (chooser.single) return new pg.Pool({ ...config, connectionString: url });
  const pool = new pg.Pool({ ...config, connectionString: target.baseUrl, Client: clientClass(chooser, target.attrs) });
  // pool.query() and kysely both take their connections through connect(), in either form.
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const retried = () => connect().catch((err: unknown) => (staleHost(err) ? connect() : Promise.reject(err)));
  pool.connect = ((
    callback?: (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void,
  ) => {
    if (!callback) return retried();
    retried().then(
      (client) => callback(undefined, client, (release) => client.release(release as boolean | Error | undefined)),
      (err: Error) => callback(err),
    );
  }) as typeof pool.connect;
  return pool;
}
