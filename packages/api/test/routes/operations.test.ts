// Operations (issue 11): GET /readyz beside /healthz; GET /metrics in the
// Prometheus text format, for the operator key or on METRICS_PORT; a
// PostgreSQL outage answers 503 {detail} with Retry-After where state is
// needed, serves anonymous catalogue reads uncounted (the documented
// degradation), and the server recovers by itself when the database returns.
import { test } from 'node:test';
import { datasetVersionId } from '../../src/ingest/dataset-version.ts';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { build, body, tempDir, testCatalog } from '../helper.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openPostgresStore } from '../../src/state/postgres.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { ThrowawayPostgres, postgresBinDir } from '../fakes/throwaway-postgres.ts';

test('/readyz: ready with every check; a missing migration makes it 503 with the failed check named', async (t) => {
  const app = await build(t);
  const ready = await app.inject('/readyz');
  assert.equal(ready.statusCode, 200);
  // The dataset version served: the bundled dataset without source overlays has one too.
  assert.deepEqual(body(ready), { status: 'ready', checks: { catalog: true, state: true, migrations: true }, dataset_version: app.catalog.datasetVersion });
  assert.equal(app.catalog.datasetVersion, datasetVersionId({}));
  const db = new DatabaseSync(path.join(app.config.dataDir, 'state.sqlite'));
  db.prepare('DELETE FROM schema_migrations WHERE version = 3').run();
  db.close();
  const behind = await app.inject('/readyz');
  assert.equal(behind.statusCode, 503);
  assert.equal(body(behind).detail, 'Not ready: migrations');
  assert.equal(behind.headers['retry-after'], '5');
  assert.equal((await app.inject('/healthz')).statusCode, 200, 'liveness is another question');
});

test('/metrics: Prometheus text for the operator key only; per-route counts and latency, outbox, catalogue version', async (t) => {
  const none = await build(t);
  assert.equal((await none.inject('/metrics')).statusCode, 404, 'no ADMIN_API_KEY: no metrics on the main port');
  const app = await build(t, { ADMIN_API_KEY: 'admin-secret-1234567890' });
  assert.equal((await app.inject('/metrics')).statusCode, 403);
  assert.equal((await app.inject({ url: '/metrics', headers: { 'x-admin-key': 'wrong' } })).statusCode, 403);
  await app.inject('/v1/programs/search?q=補助金&limit=1');
  await app.inject('/v1/programs/search?limit=1');
  await app.inject('/v1/programs/UNI-doesnotexist');
  const res = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer admin-secret-1234567890' } });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const text = res.body;
  assert.match(text, /http_requests_total\{method="GET",route="\/v1\/programs\/search",status="200"\} 2/);
  assert.match(text, /http_requests_total\{method="GET",route="\/v1\/programs\/:unified_id",status="404"\} 1/);
  const bucket = text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('http_request_duration_seconds_bucket{') &&
        l.includes('le="5"') &&
        l.includes('route="/v1/programs/search"') &&
        l.includes('status="200"'),
    );
  assert.match(bucket ?? '', / 2$/, 'both searches answered within 5 s');
  assert.match(text, /jpsp_meter_outbox_pending 0/);
  assert.match(text, /jpsp_meter_outbox_parked 0/);
  assert.match(text, /jpsp_usage_writes_in_flight 0/);
  assert.match(text, /jpsp_state_store_up 1/);
  assert.match(text, /jpsp_webhook_outbox_pending 0/);
  assert.match(text, /jpsp_webhook_outbox_failed 0/);
  assert.match(text, /jpsp_webhook_endpoints_disabled 0/);
  assert.match(text, new RegExp(`jpsp_catalog_info\\{data_as_of="${app.catalog.meta.data_as_of}",last_ingested_at="[^"]+"\\} 1`));
  assert.match(text, new RegExp(`jpsp_dataset_version_info\\{dataset_version="${app.catalog.datasetVersion}"\\} 1`));
  assert.match(text, /process_resident_memory_bytes/);
  assert.doesNotMatch(text, /search\?q=/, 'route patterns, never URLs');
});

test('/metrics: the webhook outbox (deliveries waiting, given up; endpoints disabled)', async (t) => {
  const app = await build(t, { ADMIN_API_KEY: 'admin-secret-1234567890' });
  const endpoint = await app.state.webhookEndpoints.create({
    keyId: 1,
    url: 'https://example.com/hook',
    events: ['program.created'],
    description: null,
    sealedSecret: 'sealed',
  });
  assert.ok(endpoint);
  const payload = () => '{}';
  await app.state.webhookEndpoints.queue([
    { endpointId: endpoint.id, source: 'seq:1', eventType: 'program.created', payload },
    { endpointId: endpoint.id, source: 'seq:2', eventType: 'program.created', payload },
  ]);
  const scrape = async () => (await app.inject({ url: '/metrics', headers: { authorization: 'Bearer admin-secret-1234567890' } })).body;
  assert.match(await scrape(), /jpsp_webhook_outbox_pending 2/);
});

test('METRICS_PORT serves /metrics without a key on its own listener, and nothing else', async (t) => {
  const app = await build(t, { METRICS_PORT: '0' });
  const address = app.metrics.address();
  assert.ok(address && address.port > 0);
  const base = `http://127.0.0.1:${address.port}`;
  const res = await fetch(`${base}/metrics`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /jpsp_meter_outbox_pending/);
  const other = await fetch(`${base}/v1/programs/search`);
  assert.equal(other.status, 404);
  assert.equal(typeof (await other.json()).detail, 'string');
});

test('a PostgreSQL outage: 503 {detail} with Retry-After where state is needed, anonymous reads served uncounted, recovery without a restart', {
  skip: postgresBinDir() ? false : 'PostgreSQL server binaries not installed',
  timeout: 120_000,
}, async (t) => {
  const pg = await ThrowawayPostgres.create();
  t.after(() => pg.destroy());
  const store = openPostgresStore(pg.url, { max: 4 });
  await store.migrate();
  const key = generateApiKey();
  await store.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'free' });
  const config = loadConfig({ DATA_DIR: tempDir(t), TRUST_PROXY: '1', ANON_DAILY_LIMIT: '3' });
  const app = await buildApp({ config, catalog: await testCatalog(), state: store, ownsState: true });
  t.after(() => app.close());
  const anon = (url: string) => app.inject({ url, headers: { 'x-forwarded-for': '203.0.113.90' } });
  assert.equal((await anon('/v1/programs/search?limit=1')).statusCode, 200);
  assert.equal((await app.inject({ url: '/v1/ping', headers: { 'x-api-key': key.key } })).statusCode, 200);

  await pg.stop();
  const keyed = await app.inject({ url: '/v1/ping', headers: { 'x-api-key': key.key } });
  assert.equal(keyed.statusCode, 503);
  assert.equal(keyed.headers['retry-after'], '5');
  assert.match(body(keyed).detail, /try again shortly/);
  assert.doesNotMatch(keyed.body, /ECONNREFUSED|127\.0\.0\.1|postgres/i, 'no internals');
  const feedback = await app.inject({ method: 'POST', url: '/v1/feedback', headers: { 'x-forwarded-for': '203.0.113.90' }, payload: { message: 'hello' } });
  assert.equal(feedback.statusCode, 503, 'a write that needs the store');
  // Anonymous catalogue reads degrade as decided: served, not counted (more than the limit of 3 pass).
  for (let i = 0; i < 5; i++) {
    const res = await anon('/v1/programs/search?limit=1');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['x-degraded']), /uncounted/);
  }
  const ready = await app.inject('/readyz');
  assert.equal(ready.statusCode, 503);
  assert.deepEqual(body(ready).checks, { catalog: true, state: false, migrations: false });
  assert.equal((await app.inject('/healthz')).statusCode, 503);

  await pg.start();
  const deadline = Date.now() + 20_000;
  let back = await app.inject({ url: '/v1/ping', headers: { 'x-api-key': key.key } });
  while (back.statusCode !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    back = await app.inject({ url: '/v1/ping', headers: { 'x-api-key': key.key } });
  }
  assert.equal(back.statusCode, 200, 'recovered without a restart');
  assert.equal((await app.inject('/readyz')).statusCode, 200);
  // Counting resumed: the one counted call before the outage, then two more, then the limit.
  assert.deepEqual([(await anon('/meta')).statusCode, (await anon('/meta')).statusCode, (await anon('/meta')).statusCode], [200, 200, 429]);
});
