// GET /readyz: whether this node can answer lookups now, for a load balancer or an orchestrator
// choosing where to send traffic. /healthz only says the process is up; a node without a
// snapshot, whose app.db does not answer, or (fleet mode) that cannot reach the shared
// PostgreSQL, is alive but must not get traffic.
import type { ServerResponse } from 'node:http';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import { appDbAnswers } from '../../storage/app/sqlite.ts';
import type { FleetProbe } from '../../storage/app/fleet-probe.ts';
import { ERRORS } from '../../domain/api-errors.ts';
import { sendJson } from './errors.ts';

export const READYZ_ROUTE = '/readyz';

export interface ReadinessDeps {
  registry: CompanyRegistry;
  /** app.db answers a trivial query (default: appDbAnswers on a fresh connection). */
  appDb: () => boolean;
  /** Fleet mode: the shared PostgreSQL's probe (is it reachable; the release every node must serve by now). */
  fleet?: Pick<FleetProbe, 'reachable' | 'dueRelease'>;
}

type Reason = 'no_snapshot' | 'app_db' | 'shared_db' | 'behind_fleet';

/** Why this node is not ready, or null when it is; checked in the order a fix would follow. */
export async function notReadyReason(deps: ReadinessDeps): Promise<Reason | null> {
  if (!deps.appDb()) return 'app_db';
  if (deps.fleet && !(await deps.fleet.reachable())) return 'shared_db';
  if (!deps.registry.info) return 'no_snapshot';
  const due = deps.fleet ? await deps.fleet.dueRelease() : null;
  return due !== null && deps.registry.info.release !== due ? 'behind_fleet' : null;
}

export function readyzHandler(deps: ReadinessDeps) {
  // The reason is in the body too: a load balancer's log then says why a node left rotation.
  const send = (res: ServerResponse, reason: Reason | null) => {
    if (reason !== null) {
      const def = ERRORS.not_ready;
      return sendJson(
        res,
        def.status,
        { error: def.error, message: def.message, reason },
        { 'Retry-After': def.retryAfter as number, 'Cache-Control': 'no-store' },
      );
    }
    sendJson(res, 200, { status: 'ready' }, { 'Cache-Control': 'no-store' });
  };
  return async (_req: unknown, res: ServerResponse) => send(res, await notReadyReason(deps));
}

/** The default app.db check of a server on `dataDir`. */
export const appDbCheck = (dataDir: string) => () => appDbAnswers(dataDir);
