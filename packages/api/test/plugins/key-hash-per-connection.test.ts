// A key presented on a keep-alive connection is hashed once for the
// connection, not once per request (plugins/auth.ts); another key on the same
// connection is hashed and checked as its own, and a wrong one still fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { keyHashStats } from '../../src/plugins/auth.ts';

test('one SHA-256 per key per connection; a different or wrong key on it is its own', async (t) => {
  const app = await build(t);
  const keys = [generateApiKey(), generateApiKey()];
  for (const k of keys) await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'free', customerId: null });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  const sockets = new Set<unknown>();
  const ping = (key: string) =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/ping', agent, headers: { 'x-api-key': key } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('socket', (s) => sockets.add(s));
      req.on('error', reject);
      req.end();
    });

  const before = keyHashStats.computed;
  for (let i = 0; i < 3; i++) assert.equal(await ping(keys[0].key), 200);
  assert.equal(sockets.size, 1, 'one connection');
  assert.equal(keyHashStats.computed - before, 1, 'three requests, one hash');
  assert.equal(await ping(keys[1].key), 200, 'another key on the same connection');
  assert.equal(keyHashStats.computed - before, 2);
  const wrong = `${keys[0].key.slice(0, -1)}${keys[0].key.endsWith('A') ? 'B' : 'A'}`;
  assert.equal(await ping(wrong), 401, 'a wrong key is hashed and refused');
  assert.equal(await ping(keys[0].key), 200);
  assert.equal(sockets.size, 1);
});
