// A webhook receiver that trickles its answer one byte every few seconds,
// against a server started as `npm start` starts it (issue 24, M1): SIGTERM
// while an attempt is at that receiver ends the process at once with exit 0
// (the attempt is aborted and its delivery given back, not counted); after a
// restart the delivery is attempted again and ends at the deadline, counted
// as a failure with its backoff, while another key's delivery goes out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import { generateApiKey } from '../../src/access/keys.ts';
import { startSlowReceivers } from '../fakes/slow-receivers.ts';
import { SHARED_STORES, request, startServer } from './servers.ts';

for (const kind of SHARED_STORES) {
  test(`${kind.kind}: SIGTERM with an attempt at a trickling receiver exits 0 at once; after a restart the attempt ends at its deadline`, {
    skip: kind.skip,
    timeout: 180_000,
  }, async (t) => {
    const { store, env: stateEnv } = await kind.open(t);
    const receivers = await startSlowReceivers(t);
    const env = {
      ...stateEnv,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_INTERVAL_SECONDS: '1',
      WEBHOOK_TIMEOUT_SECONDS: '60',
      WEBHOOK_RETRY_BASE_SECONDS: '3600',
      SHUTDOWN_TIMEOUT_SECONDS: '2',
    };
    const keys = [generateApiKey(), generateApiKey()];
    for (const k of keys) await store.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free' });
    const [attacker, victim] = keys.map((k) => ({ 'x-api-key': k.key, 'content-type': 'application/json' }));
    const agent = new http.Agent({ keepAlive: false });

    const first = await startServer(t, env);
    const create = async (headers: Record<string, string>, url: string) => {
      const r = await request(agent, `${first.url}/v1/me/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url, events: ['program.created'] }) });
      assert.equal(r.status, 201, r.body);
      return JSON.parse(r.body).id as string;
    };
    const slowId = await create(attacker, `${receivers.base}/trickle`);
    assert.equal(
      (await request(agent, `${first.url}/v1/me/webhooks/${slowId}/test`, { method: 'POST', headers: { 'x-api-key': attacker['x-api-key'] } })).status,
      202,
    );
    await receivers.waitFor((s) => s.paths.length === 1); // the attempt is at the receiver, which will never finish its answer

    first.child.kill('SIGTERM');
    const [code] = (await once(first.child, 'exit')) as [number | null];
    assert.equal(code, 0, `the process exits 0 without waiting for the receiver: ${first.output().slice(-400)}`);
    assert.match(first.output(), /"msg":"shut down"/);
    const [given] = await store.webhookEndpoints.deliveries(slowId, 1);
    assert.deepEqual([given.status, given.attempts], ['pending', 0], 'the aborted attempt is given back, not counted');

    // Restarted with a short deadline: the same delivery is attempted again, and that attempt ends.
    const second = await startServer(t, { ...env, WEBHOOK_TIMEOUT_SECONDS: '2' });
    const fastId = await (async () => {
      const r = await request(agent, `${second.url}/v1/me/webhooks`, {
        method: 'POST',
        headers: victim,
        body: JSON.stringify({ url: `${receivers.base}/ok/victim`, events: ['program.created'] }),
      });
      assert.equal(r.status, 201, r.body);
      return JSON.parse(r.body).id as string;
    })();
    assert.equal(
      (await request(agent, `${second.url}/v1/me/webhooks/${fastId}/test`, { method: 'POST', headers: { 'x-api-key': victim['x-api-key'] } })).status,
      202,
    );
    const until = Date.now() + 60_000;
    let slow = given;
    let fast = (await store.webhookEndpoints.deliveries(fastId, 1))[0];
    while ((slow.attempts === 0 || fast.status !== 'delivered') && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      [slow] = await store.webhookEndpoints.deliveries(slowId, 1);
      [fast] = await store.webhookEndpoints.deliveries(fastId, 1);
    }
    // The attempt is bounded by what is left of the pass's 2 s deadline (a millisecond or two may have gone).
    assert.deepEqual([slow.status, slow.attempts], ['pending', 1], 'ended at the deadline, retried later');
    const bound = Number(/^no answer within (\d+) ms$/.exec(slow.lastError ?? '')?.[1]);
    assert.ok(bound > 1500 && bound <= 2000, `cut at the pass's deadline: ${slow.lastError}`);
    assert.equal(fast.status, 'delivered', "the other key's delivery went out");
    await receivers.waitFor((s) => s.open === 0);
    second.child.kill('SIGTERM');
    const [code2] = (await once(second.child, 'exit')) as [number | null];
    assert.equal(code2, 0);
    agent.destroy();
  });
}
