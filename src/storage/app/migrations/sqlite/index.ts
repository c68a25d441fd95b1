// Migrations are listed in code (not read from a folder) so they survive bundling into the
// standalone binary. Names sort in the order they run.
import type { Migration } from 'kysely';
import * as m0001 from './0001_registry_snapshots.ts';
import * as m0002 from './0002_accounts.ts';
import * as m0003 from './0003_web_sessions.ts';
import * as m0004 from './0004_auth_epoch.ts';
import * as m0005 from './0005_contacts_epoch.ts';
import * as m0006 from './0006_usage_daily_web.ts';
import * as m0007 from './0007_watchlists_webhooks.ts';
import * as m0008 from './0008_webhook_claims.ts';
import * as m0009 from './0009_snapshot_release.ts';
import * as m0010 from './0010_webhook_delivery_seq.ts';

export const sqliteMigrations: Record<string, Migration> = {
  '0001_registry_snapshots': m0001,
  '0002_accounts': m0002,
  '0003_web_sessions': m0003,
  '0004_auth_epoch': m0004,
  '0005_contacts_epoch': m0005,
  '0006_usage_daily_web': m0006,
  '0007_watchlists_webhooks': m0007,
  '0008_webhook_claims': m0008,
  '0009_snapshot_release': m0009,
  '0010_webhook_delivery_seq': m0010,
};
