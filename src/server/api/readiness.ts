// GET /readyz: whether this node can answer lookups now, for a load balancer or an orchestrator
// choosing where to send traffic. /healthz only says the process is up; a node without a
// snapshot, or whose app.db does not answer, is alive but must not get traffic.
import type { ServerResponse } from 'node:http';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { appDbAnswers } from '../../storage/app-db.ts';
import { sendError, sendJson } from './errors.ts';

export const READYZ_ROUTE = '/readyz';

export interface ReadinessDeps {
  reader: CompanyRegistry;
  /** app.db answers a trivial query (default: appDbAnswers on a fresh connection). */
  appDb: () => boolean;
}

/** Why this node is not ready, or null when it is; checked in the order a fix would follow. */
export function notReadyReason(deps: ReadinessDeps): 'no_snapshot' | 'app_db' | null {
  if (!deps.appDb()) return 'app_db';
  if (!deps.reader.info) return 'no_snapshot';
  return null;
}

export function readyzHandler(deps: ReadinessDeps) {
  return (_req: unknown, res: ServerResponse) => {
    // The reason is for the operator (the status and the metrics); the client gets the table's sentence.
    if (notReadyReason(deps) !== null) return sendError(res, 'not_ready', { 'Cache-Control': 'no-store' });
    sendJson(res, 200, { status: 'ready' }, { 'Cache-Control': 'no-store' });
  };
}

/** The default app.db check of a server on `dataDir`. */
export const appDbCheck = (dataDir: string) => () => appDbAnswers(dataDir);
