// Metrics of a cluster (serve --workers N): each worker keeps its own registry and answers the
// primary's requests for it over the cluster's IPC channel; the primary's listener sums them
// (prom-client's AggregatorRegistry: counters and histograms add up, gauges by their aggregator).
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Scrape } from './listener.ts';

/** In a worker: the registry the primary's scrapes collect. */
export function shareWithPrimary(registry: Registry): void {
  // Constructing one is what makes a worker answer the primary's requests (prom-client 15).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/** In the primary: a scrape of every worker's registry, aggregated. */
export function clusterScrape(): Scrape {
  const aggregator = new AggregatorRegistry();
  return { metrics: () => aggregator.clusterMetrics(), contentType: aggregator.contentType };
}
