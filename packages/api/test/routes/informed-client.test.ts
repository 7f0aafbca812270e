// The client library's typed methods for the change feed, saved searches,
// webhooks, subscribers, calendars and exports, in-process against the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BadRequestError, JpSupportClient, NotFoundError, injectTransport } from '@jp-support/client';
import { build } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { recordDatasetVersion } from '../../src/changes/record.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { ensureDerivedCatalog, ensureTestCatalog } from '../catalog-fixture.ts';

test('client: changes, history, saved searches, webhooks, subscribers, calendar and exports', async (t) => {
  const derived = await ensureDerivedCatalog();
  const app = await build(
    t,
    { ANON_DAILY_LIMIT: '1000', FREE_DAILY_LIMIT: '1000', OUTBOUND_ALLOW_PRIVATE: 'true', OUTBOUND_INTERVAL_SECONDS: '0', SMTP_URL: 'smtp://127.0.0.1:9' },
    {},
    { catalog: new Catalog(derived.file) },
  );
  await recordDatasetVersion(new Catalog(await ensureTestCatalog()), app.state);
  await recordDatasetVersion(app.catalog, app.state);
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const client = new JpSupportClient({ transport: injectTransport(app), apiKey: k.key });

  const events = [];
  for await (const page of client.changes.follow({ limit: 4 })) events.push(...page.events);
  assert.equal(events.length, Object.values(derived.manifest.events).flat().length);
  assert.equal((await client.changes.versions()).results[0].version, 2);
  const amended = derived.manifest.events['program.amended'][0];
  assert.deepEqual(
    (await client.programs.history(amended)).versions.map((v) => v.change),
    ['baseline', 'amended'],
  );

  const saved = await client.savedSearches.create({ name: '東京', query: { prefecture: '東京都' } });
  assert.equal((await client.savedSearches.list()).results[0].id, saved.id);
  assert.equal((await client.savedSearches.get(saved.id)).name, '東京');
  const hook = await client.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['saved_search.matched'] });
  assert.match(hook.secret, /^whsec_/);
  const queued = await client.webhooks.test(hook.id);
  assert.equal((await client.webhooks.deliveries(hook.id)).results[0].id, queued.delivery_id);
  assert.equal((await client.webhooks.list()).results.length, 1);
  await client.webhooks.delete(hook.id);
  assert.equal((await client.subscribers.subscribe({ email: 'taro@example.jp', saved_search_id: saved.id })).status, 'accepted');
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(`${app.config.dataDir}/state.sqlite`, { readOnly: true });
  const { id } = db.prepare('SELECT id FROM subscribers').get() as { id: string };
  db.close();
  assert.match(await client.subscribers.confirm(app.outbound.secrets.token('confirm', id)), /購読を確定しました/);
  assert.match(await client.subscribers.unsubscribe(app.outbound.secrets.token('unsubscribe', id)), /購読を取り消しました/);
  await assert.rejects(client.subscribers.confirm('not-a-valid-token'), BadRequestError);

  const ics = await client.calendar.deadlinesIcs({ saved_search_id: saved.id, include_past: true });
  assert.match(ics, /^BEGIN:VCALENDAR/);
  assert.ok((await client.calendar.deadlines({ prefecture: '東京都', include_past: true })).total > 0);
  const csv = await client.programs.export('csv', { prefecture: '東京都', max_rows: 10 });
  assert.ok(csv.startsWith('\uFEFFunified_id,'));
  assert.equal(csv.trimEnd().split('\r\n').length, 11);
  const jsonl = await client.taxRulesets.export('jsonl', { max_rows: 3 });
  assert.equal(jsonl.trimEnd().split('\n').length, 3);

  await client.savedSearches.delete(saved.id);
  await assert.rejects(client.savedSearches.get(saved.id), NotFoundError);
});
