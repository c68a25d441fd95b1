// The PostgreSQL app schema's migrations (fleet mode), listed in code like SQLite's (./migrations/).
// Their own sequence: 0001 here is SQLite's 0002–0007 (see 0001_app_schema.ts).
import type { Migration } from 'kysely';
import * as m0001 from './0001_app_schema.ts';
import * as m0002 from './0002_count_calls.ts';
import * as m0003 from './0003_fleet_nodes.ts';
import * as m0004 from './0004_webhook_claims.ts';
import * as m0005 from './0005_fleet_release.ts';
import * as m0006 from './0006_webhook_delivery_seq.ts';

export const postgresMigrations: Record<string, Migration> = {
  '0001_app_schema': m0001,
  '0002_count_calls': m0002,
  '0003_fleet_nodes': m0003,
  '0004_webhook_claims': m0004,
  '0005_fleet_release': m0005,
  '0006_webhook_delivery_seq': m0006,
};
