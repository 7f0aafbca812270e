// For a cluster primary (several workers, node:cluster): the sum of every
// worker's metrics through prom-client's AggregatorRegistry (each worker
// hands its registry to the cluster bridge in plugins/metrics.ts), served
// without a key at METRICS_HOST:METRICS_PORT/metrics when METRICS_PORT is set,
// and handed to any worker that answers GET /metrics for the admin key
// (metrics-bridge.ts). Counters and histograms are summed over
// workers; gauges too, except where prom-client's aggregator is told
// otherwise (gauges of the shared store take the largest value).
import type { Server } from 'node:http';
import { AggregatorRegistry } from 'prom-client';
import type { Config } from '../config.ts';
import { metricsListener } from '../plugins/metrics.ts';
import { answerMetricsRequests, type MetricsText } from '../plugins/metrics-bridge.ts';

export async function servePrimaryMetrics(config: Pick<Config, 'metricsPort' | 'metricsHost'>): Promise<Server | null> {
  const aggregator = new AggregatorRegistry();
  const collect = async (): Promise<MetricsText> => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() });
  answerMetricsRequests(collect);
  if (config.metricsPort === null) return null;
  const server = metricsListener(collect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort!, config.metricsHost, () => resolve());
  });
  return server;
}
