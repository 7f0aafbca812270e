// For a cluster primary (several workers, node:cluster): the sum of every
// worker's metrics through prom-client's AggregatorRegistry (each worker
// hands its registry to the cluster bridge in plugins/metrics.ts), served
// without a key at METRICS_HOST:METRICS_PORT/metrics when METRICS_PORT is set,
// and handed to any worker that answers GET /metrics for the admin key
// (metrics-bridge.ts). Counters and histograms are summed over
// workers; gauges too, except where prom-client's aggregator is told
// otherwise (gauges of the shared store take the largest value). The
// primary's own memory follows the workers' sum, as jpsp_primary_memory_bytes
// (the same components as the workers' process figures: lib/process-memory.ts),
// so the tree's memory is the two added.
import type { Server } from 'node:http';
import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import type { Config } from '../config.ts';
import { metricsListener } from '../plugins/metrics.ts';
import { answerMetricsRequests, type MetricsText } from '../plugins/metrics-bridge.ts';
import { processMemory } from '../lib/process-memory.ts';

/** The primary's own registry: its memory by component. */
export function primaryRegistry(): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'jpsp_primary_memory_bytes',
    help:
      "Memory of the cluster primary (which serves no request) by component, as jpsp_memory_bytes's process figures: resident, " +
      'V8 heap used and committed, external; resident_anonymous, resident_file and proportional pages (Linux), v8_<space>, outside_v8_anonymous',
    labelNames: ['component'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [component, bytes] of Object.entries(processMemory())) this.set({ component }, bytes);
    },
  });
  return registry;
}

export async function servePrimaryMetrics(config: Pick<Config, 'metricsPort' | 'metricsHost'>): Promise<Server | null> {
  const aggregator = new AggregatorRegistry();
  const own = primaryRegistry();
  const collect = async (): Promise<MetricsText> => {
    const workers = await aggregator.clusterMetrics();
    return { contentType: aggregator.contentType, body: `${workers}${workers.endsWith('\n') ? '' : '\n'}${await own.metrics()}` };
  };
  answerMetricsRequests(collect);
  if (config.metricsPort === null) return null;
  const server = metricsListener(collect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort!, config.metricsHost, () => resolve());
  });
  return server;
}
