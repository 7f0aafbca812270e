// With several workers (node:cluster) each has its own metrics registry; the
// primary serves their sum on METRICS_PORT (prom-client AggregatorRegistry).
// The server is started as `npm start` starts it, with WEB_CONCURRENCY=2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { privateDataDir, request, startServer } from './servers.ts';

test('two workers: the primary serves the sum of both registries on METRICS_PORT', { timeout: 120_000 }, async (t) => {
  const dataDir = await privateDataDir(t);
  const server = await startServer(t, { DATA_DIR: dataDir, WEB_CONCURRENCY: '2', METRICS_PORT: '0' });
  const deadline = Date.now() + 60_000;
  while ((server.output().match(/Server listening at/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const metricsUrl = /metrics of all workers at (http:\/\/[^\s]+)/.exec(server.output())?.[1];
  assert.ok(metricsUrl, server.output().slice(-500));
  // Fresh connections, so the primary's round robin spreads them over both workers.
  for (let i = 0; i < 20; i++) {
    const res = await request(new http.Agent({ keepAlive: false }), `${server.url}/healthz`);
    assert.equal(res.status, 200, res.body);
  }
  const metrics = await request(new http.Agent(), metricsUrl);
  assert.equal(metrics.status, 200);
  const line = metrics.body.split('\n').find((l) => l.startsWith('http_requests_total{') && l.includes('route="/healthz"'));
  assert.match(line ?? '', / 20$/, `the two workers' counts are summed: ${line}`);
  // A figure of the shared store is one figure, not one per worker.
  assert.match(metrics.body, /\njpsp_meter_outbox_pending 0\n/);
  assert.match(metrics.body, /\njpsp_state_store_up 1\n/);
});
