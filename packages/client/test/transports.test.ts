// Both transports against the real API app over the test catalogue: HTTP
// (fetch over a listening socket) and in-process (Fastify inject) must give
// the same answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { JpSupportClient, NotFoundError, injectTransport } from '../src/index.ts';
import { build } from '../../api/test/helper.ts';

test('fetch over HTTP and inject in-process return identical results', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '100000' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const http = new JpSupportClient({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
  const inject = new JpSupportClient({ transport: injectTransport(app), maxRetries: 0 });

  const search = await http.programs.search({ tier: ['S', 'A'], limit: 5 });
  assert.ok(search.total > 0, 'the test catalogue has S/A programs');
  assert.ok(
    search.results.every((r) => r.tier === 'S' || r.tier === 'A'),
    'repeated tier keys reach the server',
  );
  assert.deepEqual(await inject.programs.search({ tier: ['S', 'A'], limit: 5 }), search);

  const id = search.results[0].unified_id;
  const detail = await http.programs.get(id, { fields: 'full' });
  assert.equal(detail.unified_id, id);
  assert.deepEqual(await inject.programs.get(id, { fields: 'full' }), detail);

  const batch = await http.programs.batch({ unified_ids: [id, 'NOPE', id] });
  assert.deepEqual(batch.not_found, ['NOPE']);
  assert.deepEqual(
    batch.results.map((r) => r.unified_id),
    [id],
  );
  assert.deepEqual(await inject.programs.batch({ unified_ids: [id, 'NOPE', id] }), batch);

  const profile = { prefecture: '大阪府', industry: 'E', employees: 30, need: '古い機械を入れ替えたい', limit: 3 };
  const matched = await http.programs.match(profile);
  assert.equal(matched.read_as.industry, 'E');
  assert.ok(matched.results.every((r) => Array.isArray(r.reasons) && Array.isArray(r.unknowns)));
  assert.deepEqual(await inject.programs.match(profile), matched);

  const rules = await http.exclusions.rules();
  assert.ok(rules.length > 0);
  assert.deepEqual(await inject.exclusions.rules(), rules);
  const ids = [rules[0].program_a, rules[0].program_b].filter((x): x is string => typeof x === 'string');
  const check = await http.exclusions.check({ program_ids: ids });
  assert.deepEqual(await inject.exclusions.check({ program_ids: ids }), check);

  const meta = await http.meta();
  assert.equal(typeof meta.total_programs, 'number');
  assert.deepEqual(await inject.meta(), meta);

  const loans = await http.loans.search({ collateral: 'not_required', limit: 3 });
  assert.deepEqual(await inject.loans.search({ collateral: 'not_required', limit: 3 }), loans);

  const { server_time_utc: _a, rate_limit_remaining: leftHttp, ...pingHttp } = await http.ping();
  const { server_time_utc: _b, rate_limit_remaining: leftInject, ...pingInject } = await inject.ping();
  assert.deepEqual(pingInject, pingHttp);
  // The same address: the remainder is the address's, as RateLimit-Remaining says; an anonymous ping takes none of it.
  assert.equal(leftInject, leftHttp);
  assert.equal(pingHttp.authenticated, false);

  for (const client of [http, inject]) {
    const err = await client.programs.get('NO-SUCH-ID').catch((e: unknown) => e);
    assert.ok(err instanceof NotFoundError);
  }
  const raw = await inject.requestWithResponse('GET', '/v1/attribution', { requestId: 'same-id' });
  assert.equal(raw.status, 200);
  assert.equal(raw.requestId, 'same-id');
  assert.deepEqual(raw.data, await http.attribution());
});

test('inject transport passes remoteAddress: the per-address limit sees separate callers', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '2' });
  const a = new JpSupportClient({ transport: injectTransport(app, { remoteAddress: '203.0.113.1' }), maxRetries: 0 });
  const b = new JpSupportClient({ transport: injectTransport(app, { remoteAddress: '203.0.113.2' }), maxRetries: 0 });
  await a.meta();
  await a.meta();
  await assert.rejects(a.meta(), { status: 429 });
  assert.equal(typeof (await b.meta()).total_programs, 'number');
});
