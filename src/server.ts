// The HTTP server: app.db (accounts, tokens, usage), the registry reader with its snapshot swap,
// the API and the web app on one port.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Polka } from 'polka';
import { ApiAccess } from './accounts/api-access.ts';
import { ContactsCache } from './accounts/contacts.ts';
import { buildApp } from './api/app.ts';
import { bufferedWriter, type LogFn } from './api/log.ts';
import { openAppDb, openAppSqlite } from './db/app-db.ts';
import type { Sqlite } from './db/sqlite.ts';
import { WalSync } from './db/wal-sync.ts';
import { dataPaths } from './config.ts';
import { defaultConnectionLimits, limitConnections, type ConnectionLimits } from './connection-limits.ts';
import { RegistryReader } from './registry/reader.ts';

export interface ServerOptions {
  dataDir: string;
  host: string;
  port: number;
  /** Base URL shown to users (docs, OpenAPI, curl examples); default: the listening address. */
  publicUrl?: string;
  /** A reverse proxy is the only way in: believe its X-Forwarded-For/-Proto. */
  trustProxy?: boolean;
  now?: () => Date;
  /** Active-snapshot polling interval (ms). */
  pollMs?: number;
  /** Where request and operational lines go (default: stdout, batched per event-loop turn). */
  log?: LogFn;
  /** Extra routes, for tests. */
  extend?: (app: Polka) => void;
  /** Other connection bounds, for tests (default: defaultConnectionLimits()). */
  connections?: Partial<ConnectionLimits>;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const now = opts.now ?? (() => new Date());
  const buffered = opts.log ? null : bufferedWriter(process.stdout);
  const log: LogFn = opts.log ?? buffered!;
  const appDb = await openAppDb(opts.dataDir); // migrates: the reader's read-only connections need the tables
  let reader: RegistryReader | undefined;
  let apiConn: Sqlite | undefined;
  const walSync = new WalSync(`${dataPaths(opts.dataDir).appDb}-wal`);
  const server = http.createServer();
  limitConnections(server, { ...defaultConnectionLimits(opts.trustProxy ?? false), ...opts.connections });
  try {
    // The API's own app.db connection: its counted calls commit without fsync and are made
    // durable by WalSync off the event loop, before any answer leaves (group commit, see
    // ApiAccess).
    const conn = (apiConn = openAppSqlite(opts.dataDir));
    conn.pragma('synchronous = NORMAL');
    conn.pragma('mmap_size = 268435456');
    const access = new ApiAccess(conn, { now, walSync });
    // Extra contacts from memory, keyed on the contacts_epoch value the count just read.
    const contacts = new ContactsCache(conn, () => access.contactsEpoch);
    reader = new RegistryReader({ dataDir: opts.dataDir, pollMs: opts.pollMs, log, contacts: (cnpj) => contacts.get(cnpj) });
    // Bind first: the base URL (for the docs and the web app's curl example) needs the real port.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    const url = `http://${host}:${addr.port}`;
    // Registered before the event loop can deliver the first request.
    const { handle } = buildApp({ sqlite: appDb.sqlite, db: appDb.db, access, reader, now, baseUrl: opts.publicUrl ?? url, trustProxy: opts.trustProxy, log, extend: opts.extend });
    server.on('request', handle);
    log(`listening on ${url}${reader.info ? ` (registry ${reader.info.month})` : ' (no registry imported yet)'}`);

    let closing: Promise<void> | undefined;
    const r = reader;
    return {
      url,
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            // Requests in flight finish; keep-alive sockets that stay open are cut after a grace period.
            setTimeout(() => server.closeAllConnections(), 2000).unref();
          });
          r.close();
          // Answers waiting for a WAL flush have been sent once server.close() returned.
          conn.close();
          walSync.close();
          await appDb.close();
          buffered?.flush();
        })();
        return closing;
      },
    };
  } catch (err) {
    server.close();
    reader?.close();
    apiConn?.close();
    walSync.close();
    await appDb.close();
    throw err;
  }
}
