// GET /metrics in the Prometheus text format (prom-client), one registry per
// app: request counts and latency histograms per route pattern, method and
// status; the usage writes in flight; the meter outbox's pending and parked
// events and the age of its oldest pending one; whether the state store
// answers; the catalogue's version and the dataset version served (info
// gauges); memory by component; the event-loop delay since the previous
// scrape (event-loop-delay.ts); process metrics.
//
// Who may read it: the operator key (access `admin`, like /v1/admin/*), or
// anyone who reaches METRICS_PORT, a separate listener meant for a private
// network (METRICS_HOST, default 127.0.0.1) that serves /metrics only.
//
// Several workers (node:cluster): each worker has its own registry. A worker
// hands it to prom-client's cluster bridge (AggregatorRegistry.setRegistries),
// and the primary serves the sum of all workers on METRICS_PORT with
// `servePrimaryMetrics` (cluster-metrics.ts): counters and histograms are
// summed over workers; gauges read from the shared state store take the
// largest worker's value (they are one figure, not one per worker). Without workers the app serves
// METRICS_PORT itself. /metrics on the main port (admin key) shows the same
// sum: a worker asks the primary for it (metrics-bridge.ts).
import fp from 'fastify-plugin';
import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { metricsFromPrimary } from './metrics-bridge.ts';
import { registerEventLoopDelay } from './event-loop-delay.ts';
import { answersOf } from '../http/answers.ts';
import { CATALOG_PAGE_CACHE_BYTES } from '../lib/cache-budget.ts';
import { processMemory } from '../lib/process-memory.ts';

/**
 * What this process holds, by component (bytes): the process as a whole, and
 * the parts of it that grow with the catalogue or with traffic. The
 * catalogue's parts are read without building anything (a search index not
 * built yet counts 0).
 */
export function memoryByComponent(app: FastifyInstance): Record<string, number> {
  const out = processMemory();
  const catalog = app.catalog;
  const search = catalog.built.search;
  out.search_columns = search ? search.index.columnBytes : 0;
  out.postings = search ? search.index.postingBytes : 0;
  out.result_lists = search ? search.resultBytes : 0;
  out.record_json = catalog.built.programs ? catalog.built.programs.records.bytes : 0;
  const answers = answersOf(catalog).bytes;
  out.answer_pages = answers.pages;
  out.answer_details = answers.details;
  out.catalog_page_cache_bound = CATALOG_PAGE_CACHE_BYTES;
  return out;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: { registry: Registry; usageWrites: { inc(): void; dec(): void }; address(): AddressInfo | null };
  }
}

/** A listener that serves one registry's text at /metrics and 404 elsewhere. */
export function metricsListener(read: () => Promise<{ contentType: string; body: string }>): Server {
  return createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found"}');
      return;
    }
    read().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"detail":"metrics unavailable"}'),
    );
  });
}

export default fp(
  async function metrics(app: FastifyInstance) {
    // No per-process label: a cluster primary sums the workers' series (cluster-metrics.ts); Prometheus labels each scraped instance itself.
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const stopDelayMonitor = registerEventLoopDelay(registry);
    app.addHook('onClose', async () => stopDelayMonitor());
    const labelNames = ['method', 'route', 'status'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames,
      registers: [registry],
    });
    const latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by route pattern, method and status',
      labelNames,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    let inFlight = 0;
    new Gauge({
      name: 'jpsp_usage_writes_in_flight',
      help: 'Usage events being written (the usage backlog)',
      registers: [registry],
      collect() {
        this.set(inFlight);
      },
    });
    // One read of each outbox per scrape, shared by its gauges (they are collected concurrently).
    const outbox = oncePerScrape(() =>
      app.state.meterOutbox.stats().then(
        (s) => ({
          pending: s.pending,
          parked: s.parked,
          oldestAge: s.oldestPendingAt ? Math.max(0, (Date.now() - Date.parse(s.oldestPendingAt)) / 1000) : 0,
          up: 1,
        }),
        () => ({ pending: 0, parked: 0, oldestAge: 0, up: 0 }),
      ),
    );
    new Gauge({
      name: 'jpsp_meter_outbox_pending',
      aggregator: 'max',
      help: 'Billable usage waiting to be sent to Stripe',
      registers: [registry],
      async collect() {
        this.set((await outbox()).pending);
      },
    });
    new Gauge({
      name: 'jpsp_meter_outbox_parked',
      aggregator: 'max',
      help: 'Meter events Stripe refused for good (npm run cli -- meter replay)',
      registers: [registry],
      async collect() {
        this.set((await outbox()).parked);
      },
    });
    new Gauge({
      name: 'jpsp_meter_outbox_oldest_pending_seconds',
      aggregator: 'max',
      help: 'Age of the oldest pending meter event',
      registers: [registry],
      async collect() {
        this.set((await outbox()).oldestAge);
      },
    });
    new Gauge({
      name: 'jpsp_state_store_up',
      aggregator: 'max',
      help: '1 when the state store answered this scrape',
      registers: [registry],
      async collect() {
        this.set((await outbox()).up);
      },
    });
    const webhooks = oncePerScrape(() => app.state.webhookEndpoints.stats().catch(() => ({ pending: 0, failed: 0, disabledEndpoints: 0 })));
    new Gauge({
      name: 'jpsp_webhook_outbox_pending',
      aggregator: 'max',
      help: 'Webhook deliveries waiting to be sent (active endpoints)',
      registers: [registry],
      async collect() {
        this.set((await webhooks()).pending);
      },
    });
    new Gauge({
      name: 'jpsp_webhook_outbox_failed',
      aggregator: 'max',
      help: 'Webhook deliveries given up after their retries',
      registers: [registry],
      async collect() {
        this.set((await webhooks()).failed);
      },
    });
    new Gauge({
      name: 'jpsp_webhook_endpoints_disabled',
      aggregator: 'max',
      help: 'Webhook endpoints disabled after repeated failures',
      registers: [registry],
      async collect() {
        this.set((await webhooks()).disabledEndpoints);
      },
    });
    new Gauge({
      name: 'jpsp_catalog_info',
      aggregator: 'first',
      help: 'The catalogue being served (labels: data_as_of, last_ingested_at)',
      labelNames: ['data_as_of', 'last_ingested_at'],
      registers: [registry],
      collect() {
        this.reset();
        const meta = app.catalog.meta;
        this.set({ data_as_of: meta.data_as_of, last_ingested_at: meta.last_ingested_at }, 1);
      },
    });
    new Gauge({
      name: 'jpsp_dataset_version_info',
      // Summed over a cluster's workers: how many serving processes serve each version (two series while they swap).
      aggregator: 'sum',
      help: 'The dataset version served (label dataset_version, `npm run cli -- versions`); its value is the number of serving processes serving it',
      labelNames: ['dataset_version'],
      registers: [registry],
      collect() {
        this.reset();
        this.set({ dataset_version: app.catalog.datasetVersion }, 1);
      },
    });

    new Gauge({
      name: 'jpsp_memory_bytes',
      // Summed over a cluster's workers (the primary, which serves nothing, is not in the sum: jpsp_primary_memory_bytes).
      aggregator: 'sum',
      help:
        'Memory of the serving process by component: resident, V8 heap used and committed, external (Buffers); ' +
        'resident_anonymous, resident_file and proportional pages (Linux, smaps_rollup), v8_<space> the resident pages of each V8 heap space, ' +
        'outside_v8_anonymous the C heap, stacks and Buffers (lib/process-memory.ts); ' +
        'the bounded caches (lib/cache-budget.ts) and the search columns as estimated bytes held; the page cache of the catalogue database as its bound',
      labelNames: ['component'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [component, bytes] of Object.entries(memoryByComponent(app))) this.set({ component }, bytes);
      },
    });

    app.addHook('onResponse', async (request, reply) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? '(no route)', status: String(reply.statusCode) };
      requests.inc(labels);
      latency.observe(labels, reply.elapsedTime / 1000);
    });

    const text = async () => ({ contentType: registry.contentType, body: await registry.metrics() });
    let listener: Server | null = null;
    if (cluster.isWorker) {
      // The primary aggregates every worker's registry (servePrimaryMetrics);
      // constructing an aggregator installs prom-client's worker-side listener.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([registry]);
    } else if (app.config.metricsPort !== null) {
      listener = metricsListener(text);
      const server = listener;
      app.addHook(
        'onReady',
        () =>
          new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen(app.config.metricsPort!, app.config.metricsHost, () => resolve());
          }),
      );
      app.addHook(
        'onClose',
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      );
    }

    app.decorate('metrics', {
      registry,
      usageWrites: { inc: () => void inFlight++, dec: () => void inFlight-- },
      address: () => (listener?.address() as AddressInfo | null) ?? null,
    });

    app.get(
      '/metrics',
      {
        config: { access: 'admin' },
        schema: { hide: true },
      },
      async (request, reply) => {
        let answer;
        try {
          answer = cluster.isWorker ? await metricsFromPrimary() : await text();
        } catch (err) {
          request.log.warn({ error: err instanceof Error ? err.message : String(err) }, 'metrics unavailable');
          return reply.code(503).send({ detail: 'Metrics are unavailable right now' });
        }
        return reply.type(answer.contentType).send(answer.body);
      },
    );
  },
  { name: 'metrics', dependencies: ['state', 'catalog'] },
);

/** `read` shared by the calls of one scrape: the promise is reused for 250 ms after it settles. */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let current: Promise<T> | null = null;
  return () => (current ??= read().finally(() => setTimeout(() => (current = null), 250).unref()));
}
