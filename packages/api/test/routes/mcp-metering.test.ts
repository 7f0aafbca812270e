// /mcp is metered per JSON-RPC message and bounded (issue 11, finding 6):
// each message takes one unit of the daily allowance, a batch is at most
// MCP_MAX_BATCH messages (refused whole, before anything runs or counts), and
// one tool call makes at most MAX_API_CALLS_PER_TOOL_CALL REST calls (the
// budget itself: packages/mcp/test/call-budget.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';

const ADDRESS = '203.0.113.66';

function mcp(app: FastifyInstance, payload: unknown, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': ADDRESS, ...headers },
    payload: JSON.stringify(payload),
  });
}
const message = (id: number, method = 'tools/list', params: object = {}) => ({ jsonrpc: '2.0', id, method, params });

async function used(app: FastifyInstance): Promise<number> {
  const res = await app.inject({ url: '/v1/ping', headers: { 'x-forwarded-for': ADDRESS } });
  // An anonymous ping takes nothing (docs/decisions/0267-anonymous-pings-are-not-counted.md): what it reports is what was used.
  return Number(res.headers['ratelimit-limit']) - Number(res.headers['ratelimit-remaining']);
}

test('every JSON-RPC message takes one unit; a batch over MCP_MAX_BATCH is refused whole and counts nothing', async (t) => {
  const app = await build(t, { TRUST_PROXY: '1', ANON_DAILY_LIMIT: '30', MCP_MAX_BATCH: '5' });
  const single = await mcp(app, message(1));
  assert.equal(single.statusCode, 200, single.body);
  assert.equal(await used(app), 1, 'one message, one unit (the ping takes none)');

  const batch = await mcp(
    app,
    [1, 2, 3, 4].map((i) => message(i)),
  );
  assert.equal(batch.statusCode, 200, batch.body);
  assert.equal((body(batch) as unknown as unknown[]).length, 4);
  assert.equal(await used(app), 1 + 4);

  const tooBig = await mcp(
    app,
    [1, 2, 3, 4, 5, 6].map((i) => message(i)),
  );
  assert.equal(tooBig.statusCode, 400);
  assert.equal(body(tooBig).error.code, -32600);
  assert.match(body(tooBig).error.message, /over the limit of 5/);
  assert.equal(await used(app), 1 + 4, 'the refused batch took nothing');

  // A tool call is one unit plus the REST calls it makes (search_programs: one).
  await mcp(app, message(9, 'tools/call', { name: 'search_programs', arguments: { q: '補助金', limit: 1 } }));
  assert.equal(await used(app), 1 + 4 + 2);

  // A batch bigger than what is left is refused whole with 429, nothing runs.
  const left = 30 - (await used(app));
  const over = await mcp(
    app,
    Array.from({ length: Math.min(5, left + 1) }, (_, i) => message(i)),
  );
  if (left + 1 <= 5) {
    assert.equal(over.statusCode, 429, over.body);
    assert.equal(typeof body(over).detail, 'string');
  }
});

test('one tool call makes at most MAX_API_CALLS_PER_TOOL_CALL REST calls; more ids are refused before any call', async (t) => {
  const app = await build(t, { TRUST_PROXY: '1', ANON_DAILY_LIMIT: '10000' });
  const before = await used(app);
  const ids = Array.from({ length: 100 }, (_, i) => `TAX-${i.toString(16).padStart(10, '0')}`);
  const res = await mcp(app, message(1, 'tools/call', { name: 'evaluate_tax_applicability', arguments: { business_profile: {}, target_ruleset_ids: ids } }));
  assert.equal(res.statusCode, 200);
  const result = body(res).result;
  assert.equal(result.structuredContent.error.code, 'limit_exceeded', JSON.stringify(result.structuredContent.error));
  assert.equal((await used(app)) - before, 1, 'the message only: no inner call was made');
});
