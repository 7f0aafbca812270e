// Two server processes on one state store (PostgreSQL, and one SQLite file),
// 1,000 concurrent calls each from one anonymous address, one free key and
// one capped paid key: exactly the daily limit is admitted, and exactly
// cap / price paid calls are served (their spend reserved before serving):
// the spend never passes the cap by one yen, and every 2xx is billed exactly
// once (one usage event, one meter-outbox row), every refusal not at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstMonth } from '../../src/lib/time.ts';
import { SHARED_STORES, request, startServer } from './servers.ts';

const CALLS = 1000;
const LIMIT = 300;
const UNIT = 3;
const CAP = 600; // 200 calls

for (const kind of SHARED_STORES) {
  test(`two processes, one ${kind.kind} store: exact daily limits, exactly cap/price paid calls served and billed once, under 1,000 concurrent calls`, {
    skip: kind.skip,
    timeout: 300_000,
  }, async (t) => {
    const { store, env: stateEnv } = await kind.open(t);
    const free = generateApiKey();
    const paid = generateApiKey();
    await store.keys.create({ keyHash: free.hash, prefix: free.prefix, tier: 'free' });
    const paidRecord = await store.keys.create({ keyHash: paid.hash, prefix: paid.prefix, tier: 'paid', customerId: 'cus_cap' });
    await store.keys.setMonthlyCap(paidRecord.id, CAP);
    const env = { ...stateEnv, TRUST_PROXY: '1', ANON_DAILY_LIMIT: String(LIMIT), FREE_DAILY_LIMIT: String(LIMIT), UNIT_PRICE_YEN: String(UNIT) };
    const servers = await Promise.all([startServer(t, env), startServer(t, env)]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
    t.after(() => agent.destroy());

    const burst = async (headers: Record<string, string>) => {
      const answers = await Promise.all(
        Array.from({ length: CALLS }, async (_, i) => {
          return request(agent, `${servers[i % 2].url}/v1/programs/search?limit=1`, { headers });
        }),
      );
      const count = (s: number) => answers.filter((x) => x.status === s).length;
      return {
        answers,
        ok: count(200),
        limited: count(429),
        refused: count(402),
        other: answers.filter((a) => ![200, 402, 429].includes(a.status)).map((a) => a.status),
      };
    };

    const anonymous = await burst({ 'x-forwarded-for': '203.0.113.123' });
    assert.deepEqual([anonymous.ok, anonymous.limited, anonymous.refused, anonymous.other], [LIMIT, CALLS - LIMIT, 0, []], 'anonymous: exactly the limit');
    const keyed = await burst({ 'x-api-key': free.key });
    assert.deepEqual([keyed.ok, keyed.limited, keyed.refused, keyed.other], [LIMIT, CALLS - LIMIT, 0, []], 'free key: exactly the limit');

    const capped = await burst({ 'x-api-key': paid.key });
    assert.deepEqual(capped.other, []);
    assert.equal(capped.limited, 0, 'a paid key is never limited by volume');
    assert.equal(capped.ok, CAP / UNIT, 'exactly cap / price calls are served');
    assert.equal(capped.refused, CALLS - CAP / UNIT, 'every other call answers 402');
    for (const a of capped.answers.filter((x) => x.status === 402)) {
      const body = JSON.parse(a.body);
      assert.deepEqual(Object.keys(body).sort(), ['cap_yen', 'detail', 'spent_yen']);
      assert.equal(body.cap_yen, CAP);
      assert.ok(body.spent_yen <= CAP, 'a 402 never reports more than the cap');
    }
    const spent = await store.usage.monthlySpend(paidRecord.id, jstMonth());
    assert.equal(spent, CAP, 'the cap is reached and never exceeded by one yen');
    assert.equal(await store.usage.reservedYen(paidRecord.id, jstMonth()), 0, 'every reservation was settled');
    const summary = await store.usage.summary(paidRecord.id, jstMonth());
    assert.equal(summary.requests, capped.ok, 'refusals leave no usage row');
    assert.equal(summary.billableRequests, capped.ok, 'every 2xx billed');
    assert.equal(summary.spendYen, CAP);
    const outbox = await store.meterOutbox.pending(10_000);
    assert.equal(outbox.length, capped.ok, 'one meter event per served call');
    assert.equal(new Set(outbox.map((o) => o.eventId)).size, outbox.length, 'each once');
    t.diagnostic(`${kind.kind}: paid key ${capped.ok} served, ${capped.refused} refused with 402, ${spent} yen spent of a ${CAP} yen cap`);
  });
}
