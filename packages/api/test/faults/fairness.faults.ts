// Fairness as a property (issue 24): one key does its worst while another
// key's webhooks, mail, searches and cap keep their service levels, the
// levels written down in docs/operations.md ("Service levels under abuse").
// Two app instances share one state store (PostgreSQL when TEST_DATABASE_URL
// is set, and one SQLite file), as two processes would: the attacker calls
// process A, the victim process B (and A, for its cap). The attacker's
// webhook receivers are hostile and real (test/fakes/slow-receivers.ts, a
// process of their own: headers trickled a byte at a time, bodies streamed
// forever); mail goes to a real SMTP server. Every level is a count (passes
// of the worker, store reads, statuses), never a duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstMonth } from '../../src/lib/time.ts';
import { testCatalog } from '../helper.ts';
import { startSlowReceivers } from '../fakes/slow-receivers.ts';
import { startSmtpSink } from '../alerts/receivers.ts';
import { SHARED_STORES } from './servers.ts';

const ATTACKER_ADDRESS = '198.51.100.66';
const VICTIM_ADDRESS = '203.0.113.77';
const AUTH_FAILURE_LIMIT = 10;
const WEBHOOK_TEST_DAILY_LIMIT = 50;

for (const kind of SHARED_STORES) {
  test(`${kind.kind}: one key's worst leaves another key's webhooks, mail, searches and cap at their service levels`, {
    skip: kind.skip,
    timeout: 600_000,
  }, async (t) => {
    const { store, env: stateEnv } = await kind.open(t);
    const receivers = await startSlowReceivers(t);
    const smtp = await startSmtpSink(t);
    const env = {
      ...stateEnv,
      TRUST_PROXY: '1',
      UNIT_PRICE_YEN: '3',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_INTERVAL_SECONDS: '0',
      WEBHOOK_TIMEOUT_SECONDS: '2',
      WEBHOOK_RETRY_BASE_SECONDS: '3600',
      SMTP_URL: smtp.url,
      AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
      WEBHOOK_TEST_DAILY_LIMIT: String(WEBHOOK_TEST_DAILY_LIMIT),
    };
    const catalog = await testCatalog();
    const open = async (): Promise<FastifyInstance> => {
      const app = await buildApp({ config: loadConfig(env), catalog });
      t.after(() => app.close());
      return app;
    };
    const [a, b] = [await open(), await open()];
    const issue = async () => {
      const k = generateApiKey();
      const record = await store.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'paid', customerId: null });
      return { key: k.key, id: record.id };
    };
    const attacker = await issue();
    const victim = await issue();
    for (const app of [a, b]) {
      await app.keyCache.poll();
      await app.keyCache.poll();
    }
    const as = (who: { key: string }, address: string) => ({ 'x-api-key': who.key, 'x-forwarded-for': address });
    const atk = as(attacker, ATTACKER_ADDRESS);
    const vic = as(victim, VICTIM_ADDRESS);
    const search = () => b.inject({ url: '/v1/programs/search?q=補助金&limit=3', headers: vic });

    // The victim is known to process B before the attack (its one store read).
    assert.equal((await search()).statusCode, 200);
    const victimReadsBefore = b.keyCache.stats.misses;

    // ---- The attacker's worst, through process A ----
    // Ten endpoints (the most a key may have), all hostile: five trickle their headers, five stream bodies forever.
    const hooks: string[] = [];
    for (let i = 0; i < 10; i++) {
      const url = `${receivers.base}/${i < 5 ? 'trickle' : 'stream'}/attacker-${i}`;
      const res = await a.inject({ method: 'POST', url: '/v1/me/webhooks', headers: atk, payload: { url, events: ['program.created'] } });
      assert.equal(res.statusCode, 201, res.body);
      hooks.push(JSON.parse(res.body).id);
    }
    // A flood of test deliveries: 200 requests over the ten endpoints.
    const tests = new Map<number, number>();
    for (let i = 0; i < 200; i++) {
      const status = (await a.inject({ method: 'POST', url: `/v1/me/webhooks/${hooks[i % 10]}/test`, headers: atk })).statusCode;
      tests.set(status, (tests.get(status) ?? 0) + 1);
    }
    // And 400 deliveries of its own queued as a version's fan-out would queue them.
    await store.webhookEndpoints.queue(
      Array.from({ length: 400 }, (_, i) => ({
        endpointId: hooks[i % 10],
        source: `fanout:${i}`,
        eventType: 'program.created',
        payload: (id: string) => JSON.stringify({ id, type: 'program.created' }),
      })),
    );
    // Cap toggling, with the victim searching in between (B polls the key generation each time, as its timer would).
    const searches: number[] = [];
    for (let i = 0; i < 40; i++) {
      const cap = await a.inject({ method: 'POST', url: '/v1/me/cap', headers: atk, payload: { monthly_cap_yen: i % 2 ? null : 300 } });
      assert.equal(cap.statusCode, 200);
      await b.keyCache.poll();
      searches.push((await search()).statusCode);
    }
    // Session floods: wrong keys from the attacker's address, and its own key logged in again and again.
    const logins = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const status = (
        await a.inject({ method: 'POST', url: '/v1/session', headers: { 'x-forwarded-for': ATTACKER_ADDRESS }, payload: { api_key: generateApiKey().key } })
      ).statusCode;
      logins.set(status, (logins.get(status) ?? 0) + 1);
    }
    for (let i = 0; i < 40; i++)
      await a.inject({ method: 'POST', url: '/v1/session', headers: { 'x-forwarded-for': '198.51.100.67' }, payload: { api_key: attacker.key } });

    // ---- The victim, queued behind all of it ----
    const victimHook = await b.inject({
      method: 'POST',
      url: '/v1/me/webhooks',
      headers: vic,
      payload: { url: `${receivers.base}/ok/victim`, events: ['program.created'] },
    });
    assert.equal(victimHook.statusCode, 201, victimHook.body);
    assert.equal((await b.inject({ method: 'POST', url: `/v1/me/webhooks/${JSON.parse(victimHook.body).id}/test`, headers: vic })).statusCode, 202);
    const signup = await b.inject({
      method: 'POST',
      url: '/v1/subscribers',
      headers: { 'x-forwarded-for': VICTIM_ADDRESS },
      payload: { email: 'victim@example.jp', search: { name: '北海道', query: { prefecture: '北海道' } } },
    });
    assert.equal(signup.statusCode, 202, signup.body);
    const login = await b.inject({ method: 'POST', url: '/v1/session', headers: { 'x-forwarded-for': VICTIM_ADDRESS }, payload: { api_key: victim.key } });

    // ---- One pass of the worker (whichever process holds the lease) ----
    const pass = await a.outbound.worker.tick();
    assert.ok(pass.leader);
    const seen = await receivers.stats();

    // ---- The victim's service levels ----
    // Webhooks: delivered by the first pass after it was queued, behind 410 of the attacker's.
    assert.ok(
      seen.paths.includes('/ok/victim'),
      `victim's delivery in the first pass (${pass.delivered} delivered, ${pass.failed} failed, ${pass.released} given back)`,
    );
    // Mail: the confirmation went out in that pass too, beside the attacker's slow webhooks.
    assert.equal(pass.mailed, 1);
    assert.equal((await smtp.waitFor(1))[0].to && (smtp.messages[0].to as { text: string }).text, 'victim@example.jp');
    // Searches: every one answered, and the attacker's 40 cap changes cost the victim's key no store read in B.
    assert.deepEqual([...new Set(searches)], [200]);
    assert.equal(b.keyCache.stats.misses - victimReadsBefore, 0, "victim's key reads in B during the attack");
    // Login: the victim's own address is not held back by the attacker's guessing.
    assert.equal(login.statusCode, 200, login.body);
    // Cap: a cap the victim sets through A holds on its next call in B, however the attacker toggles its own.
    const billable = async () => (await b.inject({ url: '/v1/programs/search?limit=1', headers: vic })).statusCode;
    const setCap = async (yen: number) => (await a.inject({ method: 'POST', url: '/v1/me/cap', headers: vic, payload: { monthly_cap_yen: yen } })).statusCode;
    const spent = await store.usage.monthlySpend(victim.id, jstMonth());
    assert.equal(spent, 3 * 41, 'every search billed once');
    assert.equal(await setCap(spent + 6), 200);
    await a.inject({ method: 'POST', url: '/v1/me/cap', headers: atk, payload: { monthly_cap_yen: 300 } });
    assert.deepEqual([await billable(), await billable(), await billable()], [200, 200, 402], 'two more calls of 3 yen, then the cap');
    assert.equal(await setCap(spent + 9), 200);
    await a.inject({ method: 'POST', url: '/v1/me/cap', headers: atk, payload: { monthly_cap_yen: null } });
    assert.deepEqual([await billable(), await billable()], [200, 402], 'raised by 3 yen through A: exactly one more call in B');

    // ---- What the attacker got ----
    assert.ok((tests.get(202) ?? 0) <= 10, `test deliveries queued: at most one pending per endpoint (${JSON.stringify([...tests])})`);
    assert.equal(tests.get(429), 200 - WEBHOOK_TEST_DAILY_LIMIT, 'past the daily limit of test requests, 429');
    assert.deepEqual(
      [logins.get(401), logins.get(429)],
      [AUTH_FAILURE_LIMIT, 60 - AUTH_FAILURE_LIMIT],
      `wrong keys: 429 past the limit (${JSON.stringify([...logins])})`,
    );
    const slow = pass.failed;
    assert.ok(slow >= 5, `every trickling endpoint's attempt ended at the deadline (${slow} failed)`);
    await receivers.waitFor((s) => s.open === 0); // no socket held by the attacker's receivers after the pass
  });
}
