// Subscriber mail cannot be turned against its recipient (issue 24, L3):
// anyone may sign any address up, so the confirmation mail carries none of
// the caller's text; opening a link (what mail scanners do, GET and HEAD)
// changes nothing, only the button on its page (a POST) confirms or
// unsubscribes; a sign-up never confirmed is deleted after a week. Real SMTP
// (smtp-server), the real outbound worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { build } from '../helper.ts';
import { startSmtpSink } from './receivers.ts';
import { runMaintenance } from '../../src/state/maintenance.ts';

function subscribers(dataDir: string): { status: string; saved_search_id: string }[] {
  const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT status, saved_search_id FROM subscribers ORDER BY created_at').all() as never;
  } finally {
    db.close();
  }
}

function count(dataDir: string, table: string): number {
  const db = new DatabaseSync(path.join(dataDir, 'state.sqlite'), { readOnly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test('the confirmation mail carries none of the caller’s text; links open pages, only their buttons act; HEAD changes nothing', async (t) => {
  const smtp = await startSmtpSink(t);
  const app = await build(t, { SMTP_URL: smtp.url, OUTBOUND_INTERVAL_SECONDS: '0', PUBLIC_BASE_URL: 'https://alerts.example.jp' });
  const bait = '至急 https://evil.example/login でパスワードを確認';
  const signup = await app.inject({ method: 'POST', url: '/v1/subscribers', payload: { email: 'victim@example.jp', search: { name: bait, query: {} } } });
  assert.equal(signup.statusCode, 202, signup.body);
  await app.outbound.worker.tick();
  const [mail] = await smtp.waitFor(1);
  for (const part of [mail.subject ?? '', mail.text ?? '', String(mail.html ?? '')]) {
    assert.ok(!part.includes('evil.example') && !part.includes('パスワード'), `no caller text in the mail: ${part.slice(0, 120)}`);
  }
  const confirm = /https:\/\/alerts\.example\.jp(\/v1\/subscribers\/confirm\?token=\S+)/.exec(mail.text!)![1];
  const unsubscribe = /https:\/\/alerts\.example\.jp(\/v1\/subscribers\/unsubscribe\?token=\S+)/.exec(mail.text!)![1];

  // A scanner opens both links, with GET and HEAD: nothing changes.
  for (const method of ['GET', 'HEAD'] as const) {
    for (const url of [confirm, unsubscribe]) {
      const res = await app.inject({ method, url });
      assert.equal(res.statusCode, 200, `${method} ${url}`);
    }
  }
  assert.deepEqual(
    subscribers(app.config.dataDir).map((s) => s.status),
    ['pending'],
    'still pending, still there',
  );
  const page = await app.inject(confirm);
  assert.match(page.body, /<form method="post" action="\/v1\/subscribers\/confirm\?token=[^"]+">/);
  assert.match(page.headers['content-type'] as string, /^text\/html/);

  // The page's button confirms.
  const confirmed = await app.inject({ method: 'POST', url: confirm, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  assert.match(confirmed.body, /購読を確定しました/);
  assert.deepEqual(
    subscribers(app.config.dataDir).map((s) => s.status),
    ['confirmed'],
  );
  // The unsubscribe page's button (and a mail client's one-click POST) unsubscribes.
  const unsubscribePage = await app.inject(unsubscribe);
  assert.match(unsubscribePage.body, /<form method="post" action="\/v1\/subscribers\/unsubscribe\?token=[^"]+">/);
  const gone = await app.inject({
    method: 'POST',
    url: unsubscribe,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });
  assert.equal(gone.statusCode, 200);
  assert.match(gone.body, /購読を取り消しました/);
  assert.equal(subscribers(app.config.dataDir).length, 0);
  // A forged token is refused on the page as on the button.
  for (const method of ['GET', 'POST'] as const) {
    const forged = await app.inject({ method, url: `${confirm}x`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    assert.equal(forged.statusCode, 400, `${method} forged`);
  }
});

test('a sign-up never confirmed is deleted after a week, with its own search and its mail; a confirmed one stays', async (t) => {
  const smtp = await startSmtpSink(t);
  const app = await build(t, { SMTP_URL: smtp.url, OUTBOUND_INTERVAL_SECONDS: '0' });
  for (const email of ['a@example.jp', 'b@example.jp']) {
    const res = await app.inject({ method: 'POST', url: '/v1/subscribers', payload: { email, search: { name: '北海道', query: { prefecture: '北海道' } } } });
    assert.equal(res.statusCode, 202);
  }
  await app.outbound.worker.tick();
  const mails = await smtp.waitFor(2);
  const toB = mails.find((m) => (m.to as { text: string }).text === 'b@example.jp')!;
  const confirm = /(\/v1\/subscribers\/confirm\?token=\S+)/.exec(toB.text!)![1];
  assert.equal(
    (await app.inject({ method: 'POST', url: confirm, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })).statusCode,
    200,
  );
  assert.equal(count(app.config.dataDir, 'saved_searches'), 2);

  const sixDays = await runMaintenance(app.state, app.config, new Date(Date.now() + 6 * 86_400_000));
  assert.equal(sixDays.unconfirmedSubscribersPurged, 0, 'not yet');
  const eightDays = await runMaintenance(app.state, app.config, new Date(Date.now() + 8 * 86_400_000));
  assert.equal(eightDays.unconfirmedSubscribersPurged, 1);
  assert.deepEqual(
    subscribers(app.config.dataDir).map((s) => s.status),
    ['confirmed'],
  );
  assert.equal(count(app.config.dataDir, 'saved_searches'), 1, "the unconfirmed sign-up's own search went with it");
  assert.equal(count(app.config.dataDir, 'email_outbox'), 1, 'and its mail; the confirmed one keeps its history');
});
