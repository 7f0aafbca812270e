// A saved search receives its matches, end to end, on real data: the bundled
// dataset is the baseline, the derived dataset the next version. By webhook:
// signed, refused once by the receiver, retried after a server restart from
// the outbox in the state store, with the same delivery id (deduplicable).
// By e-mail through a real local SMTP server: confirmation, digest, and
// unsubscribe from the link in the mail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { Catalog } from '../../src/catalog/catalog.ts';
import { recordDatasetVersion } from '../../src/changes/record.ts';
import { openSqliteStore } from '../../src/state/sqlite.ts';
import { verifySignature } from '../../src/outbound/signature.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { ensureDerivedCatalog, ensureTestCatalog } from '../catalog-fixture.ts';
import { body, tempDir } from '../helper.ts';
import { startSmtpSink, startWebhookReceiver } from './receivers.ts';

const bundled = new Catalog(await ensureTestCatalog());
const derived = await ensureDerivedCatalog();
const second = new Catalog(derived.file);
// The derivation's Tokyo programmes: two created, one whose window was amended.
const windowEdited = Object.keys(derived.manifest.edited).find((id) => derived.manifest.edited[id][0] === 'application_window')!;
const tokyo = ['UNI-derived-0001', 'UNI-derived-0002', windowEdited].sort();

test('a saved search gets its matches by signed webhook (retried across a restart) and by e-mail digest; unsubscribe from the mail', async (t) => {
  const dir = tempDir(t, 'jpsp-alerts-');
  const stateFile = path.join(dir, 'state.sqlite');
  const smtp = await startSmtpSink(t);
  const receiver = await startWebhookReceiver(t);
  const env = {
    DATA_DIR: dir,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    OUTBOUND_INTERVAL_SECONDS: '0',
    SMTP_URL: smtp.url,
    PUBLIC_BASE_URL: 'https://alerts.example.jp',
    WEBHOOK_RETRY_BASE_SECONDS: '60',
  };
  const open = async () => {
    const store = openSqliteStore(stateFile);
    await store.migrate();
    return buildApp({ config: loadConfig(env), catalog: second, state: store, ownsState: true });
  };

  let app = await open();
  await recordDatasetVersion(bundled, app.state);
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const headers = { 'x-api-key': k.key };

  const saved = await app.inject({ method: 'POST', url: '/v1/me/saved_searches', headers, payload: { name: '東京都の新着', query: { prefecture: '東京都' } } });
  assert.equal(saved.statusCode, 201, saved.body);
  const searchId = body(saved).id;
  const hook = await app.inject({
    method: 'POST',
    url: '/v1/me/webhooks',
    headers,
    payload: { url: receiver.url, events: ['saved_search.matched', 'program.created'] },
  });
  assert.equal(hook.statusCode, 201, hook.body);
  const { secret, id: webhookId } = body(hook);
  assert.match(secret, /^whsec_/);
  assert.ok(!JSON.stringify(body(await app.inject({ url: '/v1/me/webhooks', headers }))).includes(secret), 'the secret is shown once');

  const sub = await app.inject({ method: 'POST', url: '/v1/subscribers', headers, payload: { email: 'hanako@example.jp', saved_search_id: searchId } });
  assert.equal(sub.statusCode, 202, sub.body);
  const again = await app.inject({ method: 'POST', url: '/v1/subscribers', payload: { email: 'Hanako@EXAMPLE.jp', search: { name: 'x', query: {} } } });
  assert.deepEqual(body(again), body(sub), 'a known address gets the same answer');
  await app.outbound.worker.tick();
  const [confirmMail] = await smtp.waitFor(2);
  assert.equal((confirmMail.to as { text: string }).text, 'hanako@example.jp');
  const confirmLink = /https:\/\/alerts\.example\.jp(\/v1\/subscribers\/confirm\?token=\S+)/.exec(confirmMail.text!)![1];
  const button = { method: 'POST' as const, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' };
  const confirmed = await app.inject({ ...button, url: confirmLink });
  assert.equal(confirmed.statusCode, 200);
  assert.match(confirmed.body, /購読を確定しました/);

  // The next dataset version: its Tokyo programmes match the saved search.
  const outcome = await recordDatasetVersion(second, app.state);
  assert.ok(outcome.recorded);
  const detail = body(await app.inject({ url: `/v1/me/saved_searches/${searchId}`, headers }));
  assert.deepEqual(detail.recent_matches.map((m: any) => m.unified_id).sort(), tokyo);

  // The receiver refuses the first attempts.
  receiver.status = 500;
  const first = await app.outbound.worker.tick();
  assert.ok(first.failed >= 1 && first.delivered === 0, JSON.stringify(first));
  const deliveries = body(await app.inject({ url: `/v1/me/webhooks/${webhookId}/deliveries`, headers })).results;
  assert.ok(deliveries.every((d: any) => d.status === 'pending' && d.attempts === 1 && d.last_status === 500));
  const firstAttemptIds = receiver.received.map((r) => r.headers['jpsp-delivery-id']).sort();

  // Restart: a new app over the same state store; the retry is due after the backoff.
  await app.close();
  app = await open();
  t.after(() => app.close());
  receiver.status = 200;
  const early = await app.outbound.worker.tick();
  assert.equal(early.delivered, 0, 'nothing is retried before its backoff');
  const later = await app.outbound.worker.tick(new Date(Date.now() + 61_000));
  assert.equal(later.delivered, firstAttemptIds.length, JSON.stringify(later));
  const delivered = receiver.received.filter((r) => r.status === 200);
  assert.deepEqual(delivered.map((r) => r.headers['jpsp-delivery-id']).sort(), firstAttemptIds, "each retry carries its delivery's stable id");
  for (const r of delivered) {
    assert.ok(verifySignature(secret, r.body, String(r.headers['jpsp-signature'])), 'signed with the endpoint secret');
    assert.equal(JSON.parse(r.body).id, r.headers['jpsp-delivery-id']);
    assert.ok(!verifySignature('whsec_other', r.body, String(r.headers['jpsp-signature'])));
  }
  const matched = delivered.filter((r) => r.headers['jpsp-event'] === 'saved_search.matched').map((r) => JSON.parse(r.body));
  assert.equal(matched.length, 1, 'one saved_search.matched per search and version');
  assert.equal(matched[0].data.saved_search.id, searchId);
  assert.deepEqual(matched[0].data.matches.map((m: any) => m.unified_id).sort(), tokyo);
  const created = delivered
    .filter((r) => r.headers['jpsp-event'] === 'program.created')
    .map((r) => JSON.parse(r.body).data.record_id)
    .sort();
  assert.deepEqual(created, derived.manifest.events['program.created']);
  const quiet = await app.outbound.worker.tick(new Date(Date.now() + 3600_000));
  assert.equal(quiet.delivered, 0, 'delivered once');

  // The digest (composed and sent by the first tick after the version, whatever the webhook did), then unsubscribe from its link.
  assert.equal(first.digests, 1);
  assert.equal(later.digests + quiet.digests, 0, 'one digest for these matches');
  const mails = await smtp.waitFor(3);
  const digest = mails[2];
  assert.match(digest.subject!, /東京都の新着/);
  for (const id of tokyo) assert.ok(digest.text!.includes(id), `${id} in the digest`);
  const listUnsubscribe = (digest.headerLines.find((h) => h.key === 'list-unsubscribe')?.line ?? '').replace(/\r\n\s+/g, ' ');
  assert.match(listUnsubscribe, /^List-Unsubscribe: <https:\/\/alerts\.example\.jp\/v1\/subscribers\/unsubscribe\?token=/);
  const unsubscribeLink = /https:\/\/alerts\.example\.jp(\/v1\/subscribers\/unsubscribe\?token=\S+)/.exec(digest.text!)![1];
  const gone = await app.inject({ ...button, url: unsubscribeLink });
  assert.equal(gone.statusCode, 200);
  assert.match(gone.body, /購読を取り消しました/);
  assert.match(gone.body, /unsubscribed/);
  assert.equal((await app.inject({ ...button, url: unsubscribeLink })).statusCode, 200, 'a second click says the same');
  const forged = await app.inject(`${unsubscribeLink}x`);
  assert.equal(forged.statusCode, 400, 'a forged token is refused');
  assert.match(JSON.parse(forged.body).detail, /not valid/);
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(stateFile, { readOnly: true });
  const remaining = db.prepare('SELECT count(*) AS n FROM subscribers').get() as { n: number };
  db.close();
  assert.equal(remaining.n, 1, 'only the unconfirmed second sign-up remains');
  assert.equal((await app.outbound.worker.tick()).mailed, 0, 'no more mail to the unsubscribed address');
});

test('targets: private, loopback and link-local addresses are refused at creation and at delivery; failing endpoints are disabled with the reason', async (t) => {
  const receiver = await startWebhookReceiver(t);
  const dir = tempDir(t, 'jpsp-ssrf-');
  const store = openSqliteStore(path.join(dir, 'state.sqlite'));
  await store.migrate();
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: dir, OUTBOUND_INTERVAL_SECONDS: '0', WEBHOOK_DISABLE_AFTER: '2', WEBHOOK_RETRY_BASE_SECONDS: '0' }),
    catalog: bundled,
    state: store,
    ownsState: true,
  });
  t.after(() => app.close());
  const k = generateApiKey();
  await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const headers = { 'x-api-key': k.key };
  const create = (url: string) => app.inject({ method: 'POST', url: '/v1/me/webhooks', headers, payload: { url, events: ['program.created'] } });
  for (const url of [
    receiver.url,
    'https://127.0.0.1/x',
    'https://10.1.2.3/x',
    'https://169.254.169.254/latest',
    'https://[::1]/x',
    'https://[::ffff:192.168.0.1]/x',
    'https://localhost/x',
    'https://user:pw@example.com/x',
    'ftp://example.com/x',
  ]) {
    const res = await create(url);
    assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    assert.match(body(res).detail, /^Invalid body: url: /);
  }
  assert.equal(
    (await app.inject({ method: 'POST', url: '/v1/me/webhooks', headers, payload: { url: 'https://example.com', events: ['program.exploded'] } })).statusCode,
    400,
  );

  // A name that resolves to a private address at delivery time (DNS rebinding) is refused then too.
  const { OutboundSecrets } = await import('../../src/outbound/secrets.ts');
  const secrets = await OutboundSecrets.load(app.config, app.state);
  const key = await app.state.keys.findByHash(k.hash);
  const endpoint = await app.state.webhookEndpoints.create({
    id: 'we_rebound',
    keyId: key!.id,
    url: `https://localhost:${receiver.port}/hooks`,
    events: ['program.created'],
    description: null,
    sealedSecret: secrets.sealWebhookSecret('we_rebound', 'whsec_x'),
  });
  await app.inject({ method: 'POST', url: `/v1/me/webhooks/${endpoint!.id}/test`, headers });
  await app.outbound.worker.tick();
  const [attempt] = body(await app.inject({ url: `/v1/me/webhooks/${endpoint!.id}/deliveries`, headers })).results;
  assert.equal(attempt.status, 'pending');
  assert.match(attempt.last_error, /^refused: localhost resolves to a private/);
  assert.equal(receiver.received.length, 0, 'nothing reached the private address');

  // The second consecutive failure disables the endpoint; the reason is visible.
  await app.outbound.worker.tick(new Date(Date.now() + 1000));
  const [listed] = body(await app.inject({ url: '/v1/me/webhooks', headers })).results;
  assert.equal(listed.status, 'disabled');
  assert.match(listed.disabled_reason, /Disabled after 2 consecutive failed delivery attempts; the last: refused/);
  assert.equal((await app.inject({ method: 'POST', url: `/v1/me/webhooks/${endpoint!.id}/test`, headers })).statusCode, 409);
  assert.equal((await app.inject({ method: 'DELETE', url: `/v1/me/webhooks/${endpoint!.id}`, headers })).statusCode, 204);
  assert.equal((await app.inject({ method: 'DELETE', url: `/v1/me/webhooks/${endpoint!.id}`, headers })).statusCode, 404);
});

test('two server processes on one state store: one runs the worker, each delivery is sent once', async (t) => {
  const receiver = await startWebhookReceiver(t);
  const dir = tempDir(t, 'jpsp-lease-');
  const env = { DATA_DIR: dir, OUTBOUND_ALLOW_PRIVATE: 'true', OUTBOUND_INTERVAL_SECONDS: '0' };
  const apps = [];
  for (let i = 0; i < 2; i++) {
    const store = openSqliteStore(path.join(dir, 'state.sqlite'));
    await store.migrate();
    const app = await buildApp({ config: loadConfig(env), catalog: bundled, state: store, ownsState: true });
    t.after(() => app.close());
    apps.push(app);
  }
  const k = generateApiKey();
  await apps[0].state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  const headers = { 'x-api-key': k.key };
  const id = body(await apps[0].inject({ method: 'POST', url: '/v1/me/webhooks', headers, payload: { url: receiver.url, events: ['program.created'] } })).id;
  // Six deliveries queued through both processes (as fan-outs queue them: a test is one at a time per endpoint).
  for (let i = 0; i < 6; i++) {
    await apps[i % 2].state.webhookEndpoints.queue([
      { endpointId: id, source: `lease:${i}`, eventType: 'program.created', payload: (deliveryId) => JSON.stringify({ id: deliveryId }) },
    ]);
  }
  const reports = await Promise.all([apps[0].outbound.worker.tick(), apps[1].outbound.worker.tick()]);
  assert.equal(reports.filter((r) => r.leader).length, 1, 'one leader');
  assert.equal(reports[0].delivered + reports[1].delivered, 6);
  assert.equal(receiver.received.length, 6);
  assert.equal(new Set(receiver.received.map((r) => r.headers['jpsp-delivery-id'])).size, 6, 'no delivery twice');
  const blocked = await apps.find((_app, i) => !reports[i].leader)!.outbound.worker.tick();
  assert.equal(blocked.leader, false, 'the other still waits for the lease');
});
