// Two server processes on one PostgreSQL, 1,000 concurrent calls each from
// one anonymous address, one free key and one capped paid key: exactly the
// daily limit is admitted, and the paid key's spend never passes its cap by
// one yen. (That exactly cap/price calls are *served* needs the spend to be
// reserved before serving: speed's finding 7; marked todo until it lands.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { generateApiKey } from '../../src/keys.ts';
import { jstMonth } from '../../src/time.ts';
import { TEST_DATABASE_URL } from '../state/stores.ts';
import { catalogDir, postgresSchema, request, startServer } from './servers.ts';

const CALLS = 1000;
const LIMIT = 300;
const UNIT = 3;
const CAP = 600; // 200 calls

test('two processes, one PostgreSQL: exact daily limits and a cap never exceeded under 1,000 concurrent calls', { skip: TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set', timeout: 300_000 }, async (t) => {
  const { url, store } = await postgresSchema(t, TEST_DATABASE_URL!);
  const free = generateApiKey();
  const paid = generateApiKey();
  await store.keys.create({ keyHash: free.hash, prefix: free.prefix, tier: 'free' });
  const paidRecord = await store.keys.create({ keyHash: paid.hash, prefix: paid.prefix, tier: 'paid', customerId: 'cus_cap' });
  await store.keys.setMonthlyCap(paidRecord.id, CAP);
  const env = {
    DATA_DIR: await catalogDir(), DATABASE_URL: url, TRUST_PROXY: '1',
    ANON_DAILY_LIMIT: String(LIMIT), FREE_DAILY_LIMIT: String(LIMIT), UNIT_PRICE_YEN: String(UNIT),
  };
  const servers = await Promise.all([startServer(t, env), startServer(t, env)]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  t.after(() => agent.destroy());

  const burst = async (headers: Record<string, string>) => {
    const statuses = await Promise.all(Array.from({ length: CALLS }, async (_, i) => {
      return (await request(agent, `${servers[i % 2].url}/v1/programs/search?limit=1`, { headers })).status;
    }));
    const count = (s: number) => statuses.filter((x) => x === s).length;
    return { ok: count(200), limited: count(429), refused: count(402), other: statuses.filter((s) => ![200, 402, 429].includes(s)) };
  };

  const anonymous = await burst({ 'x-forwarded-for': '203.0.113.123' });
  assert.deepEqual(anonymous, { ok: LIMIT, limited: CALLS - LIMIT, refused: 0, other: [] }, 'anonymous: exactly the limit');
  const keyed = await burst({ 'x-api-key': free.key });
  assert.deepEqual(keyed, { ok: LIMIT, limited: CALLS - LIMIT, refused: 0, other: [] }, 'free key: exactly the limit');

  const capped = await burst({ 'x-api-key': paid.key });
  assert.deepEqual(capped.other, []);
  assert.equal(capped.limited, 0, 'a paid key is never limited by volume');
  const spent = await store.usage.monthlySpend(paidRecord.id, jstMonth());
  assert.equal(spent, CAP, 'the cap is reached and never exceeded by one yen');
  const summary = await store.usage.summary(paidRecord.id, jstMonth());
  assert.equal(summary.billableRequests, CAP / UNIT);
  assert.equal(summary.spendYen, CAP);
  const outbox = await store.meterOutbox.stats();
  assert.equal(outbox.pending, CAP / UNIT, 'one meter event per billed call, none for the rest');
  await t.test('exactly cap/price calls are served (reservation before serving)', { todo: 'speed finding 7: reserve the spend atomically before serving' }, () => {
    assert.equal(capped.ok, CAP / UNIT);
    assert.equal(capped.refused, CALLS - CAP / UNIT);
  });
  t.diagnostic(`paid key: ${capped.ok} served, ${capped.refused} refused with 402, ${spent} yen spent of a ${CAP} yen cap`);
});
