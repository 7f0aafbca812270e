// For a cluster primary (several workers, node:cluster): serve the sum of
// every worker's metrics at METRICS_HOST:METRICS_PORT/metrics, through
// prom-client's AggregatorRegistry (each worker hands its registry to the
// cluster bridge in plugins/metrics.ts). Counters and histograms are summed
// over workers; gauges too, except where prom-client's aggregator is told
// otherwise (per-process gauges keep their `pid` label).
import type { Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from './config.ts';
import { metricsListener } from './plugins/metrics.ts';

export async function servePrimaryMetrics(config: Pick<Config, 'metricsPort' | 'metricsHost'>): Promise<Server | null> {
  if (config.metricsPort === null) return null;
  const aggregator = new AggregatorRegistry();
  const server = metricsListener(async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort!, config.metricsHost, () => resolve());
  });
  return server;
}
