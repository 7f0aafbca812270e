import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, body } from '../helper.ts';

test('healthz answers ok when the catalogue is readable', async (t) => {
  const app = await build(t);
  const res = await app.inject('/healthz');
  assert.equal(res.statusCode, 200);
  assert.deepEqual(body(res), { status: 'ok' });
});
