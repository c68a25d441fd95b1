// What the web pages need from the server that mounts them.
import type { AccessLayer } from '../../domain/metering/access.ts';
import type { CompanyRegistry } from '../../domain/company/lookup.ts';
import type { DestinationPolicy } from '../../domain/webhooks/destination.ts';
import type { HistoryReader } from '../../domain/history/reader.ts';
import type { AppStore } from '../../storage/app/store.ts';

export interface WebContext {
  /** App state on either backend (app.db or the fleet's PostgreSQL). */
  store: AppStore;
  now: () => Date;
  /** Public base URL of the API (--public-url, else the listening address), for the curl example. */
  baseUrl: string;
  /** Client address and https from X-Forwarded-For/-Proto (only behind a proxy you run). Default false. */
  trustProxy?: boolean;
  /** The API's quota counting and registry: the Consulta page spends calls exactly like the API. */
  access: AccessLayer;
  registry: CompanyRegistry;
  /** Webhook URLs the operator allows (serve --webhooks-allow-http/-private). */
  webhooks?: DestinationPolicy;
  /** history.db: the Monitoramento page shows the newest month's changes of the watchlist. */
  history: HistoryReader;
}
