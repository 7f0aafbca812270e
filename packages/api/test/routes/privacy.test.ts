// Privacy: after traffic with keys and distinctive client addresses, neither
// a raw key nor a raw address appears in any table of the state store or in
// any log line (both stores; addresses arrive via X-Forwarded-For).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { buildWithStore } from '../state/app.ts';
import { FACTORIES } from '../state/stores.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { loggerOptions } from '../../src/http/logger.ts';
import { approveDevice } from '../../src/access/device.ts';

const ADDRESSES = ['203.0.113.77', '2001:db8:dead:beef::77', '198.51.100.177'];

for (const factory of FACTORIES) {
  test(`${factory.kind}: no raw key or client address in the state tables or the logs`, { skip: factory.skip }, async (t) => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { app, db } = await buildWithStore(
      t,
      factory,
      { TRUST_PROXY: '1', ADMIN_API_KEY: 'admin-key-xyz', FEEDBACK_DAILY_LIMIT: '50' },
      {
        logger: { ...(loggerOptions('info') as object), stream },
      },
    );
    const free = generateApiKey();
    const paid = generateApiKey();
    await app.state.keys.create({ keyHash: free.hash, prefix: free.prefix, tier: 'free' });
    await app.state.keys.create({ keyHash: paid.hash, prefix: paid.prefix, tier: 'paid', customerId: 'cus_priv' });
    const unknown = generateApiKey().key;
    const device = JSON.parse((await app.inject({ method: 'POST', url: '/v1/device/authorize', payload: {} })).body);
    await approveDevice(app.state, app.config, device.user_code, 'free', null);
    const issued = JSON.parse(
      (
        await app.inject({
          method: 'POST',
          url: '/v1/device/token',
          payload: { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code },
        })
      ).body,
    ).access_token as string;
    assert.ok(issued.startsWith('am_'));
    const keys = [free.key, paid.key, unknown, issued];

    for (const address of ADDRESSES) {
      const xff = { 'x-forwarded-for': address };
      await app.inject({ url: '/v1/ping', headers: xff });
      await app.inject({ url: '/v1/programs/search?q=test', headers: xff });
      await app.inject({ url: '/v1/programs/NOPE', headers: xff });
      await app.inject({ method: 'POST', url: '/v1/feedback', headers: xff, payload: { message: `from ${'somewhere'}` } });
      for (const key of keys) {
        await app.inject({ url: '/v1/ping', headers: { ...xff, 'x-api-key': key } });
        await app.inject({ url: '/v1/programs/search', headers: { ...xff, authorization: `Bearer ${key}` } });
        await app.inject({ method: 'POST', url: '/v1/feedback', headers: { ...xff, 'x-api-key': key }, payload: { message: 'hi', rating: 4 } });
        await app.inject({ url: '/v1/me/dashboard', headers: { ...xff, 'x-api-key': key } });
        await app.inject({ url: '/v1/nowhere', headers: { ...xff, 'x-api-key': key } });
      }
      await app.inject({ url: '/v1/admin/errors', headers: { ...xff, 'x-admin-key': 'admin-key-xyz' } });
    }

    const tables = await db.dump();
    assert.ok(tables.includes(free.prefix), 'the dump is real: it holds the visible prefix');
    assert.ok(tables.includes('feedback:'), 'the dump covers the feedback table');
    const logs = lines.join('');
    assert.ok(lines.length > 50, 'request logs were captured');
    for (const secret of [...keys, ...ADDRESSES, 'admin-key-xyz', device.device_code]) {
      assert.ok(!tables.includes(secret), `state tables must not contain ${secret.slice(0, 12)}…`);
      assert.ok(!logs.includes(secret), `logs must not contain ${secret.slice(0, 12)}…`);
    }
    // The address shapes we might leak in other spellings.
    for (const fragment of ['dead:beef', '113.77', '100.177']) {
      assert.ok(!tables.includes(fragment) && !logs.includes(fragment), fragment);
    }
  });
}
