// With several workers (node:cluster) each has its own metrics registry; the
// primary serves their sum on METRICS_PORT (prom-client AggregatorRegistry).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { REPO_ROOT } from '../../src/config.ts';
import { privateDataDir, request } from './servers.ts';

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

test('two workers: the primary serves the sum of both registries on METRICS_PORT', { timeout: 120_000 }, async (t) => {
  const dataDir = await privateDataDir(t);
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'packages/api/test/faults/cluster-fixture.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, METRICS_PORT: '0', LOG_LEVEL: 'silent', CLUSTER_API_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  let out = '';
  const ports = await new Promise<{ apiPort: number; metricsPort: number }>((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += String(c);
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.stderr!.on('data', (c) => (out += String(c)));
    child.once('exit', (code) => reject(new Error(`cluster exited ${code}: ${out.slice(-500)}`)));
  });
  // Fresh connections, so the primary's round robin spreads them over both workers.
  for (let i = 0; i < 20; i++) {
    const res = await request(new http.Agent({ keepAlive: false }), `http://127.0.0.1:${ports.apiPort}/healthz`);
    assert.equal(res.status, 200, res.body);
  }
  const metrics = await request(new http.Agent(), `http://127.0.0.1:${ports.metricsPort}/metrics`);
  assert.equal(metrics.status, 200);
  const line = metrics.body.split('\n').find((l) => l.startsWith('http_requests_total{') && l.includes('route="/healthz"'));
  assert.match(line ?? '', / 20$/, `the two workers' counts are summed: ${line}`);
  // A figure of the shared store is one figure, not one per worker.
  assert.match(metrics.body, /\njpsp_meter_outbox_pending 0\n/);
  assert.match(metrics.body, /\njpsp_state_store_up 1\n/);
});
