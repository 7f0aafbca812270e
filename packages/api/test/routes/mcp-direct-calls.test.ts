// The programme reads an MCP tool makes are answered in process from the
// route's own answer functions (routes/mcp-calls.ts), not by a second pass
// through Fastify; they are validated, limited, counted and billed as the
// REST call is, and anything the route would answer otherwise goes to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { build, body } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstMonth } from '../../src/lib/time.ts';
import { mcpDirectCalls } from '../../src/routes/mcp-calls.ts';

function toolCall(app: FastifyInstance, key: string | null, name: string, args: object) {
  return app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(key ? { 'x-api-key': key } : {}) },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}

/** Usage events per route, the /mcp messages' left out. */
const readsOf = (endpoints: { route: string; requests: number }[]) =>
  Object.fromEntries(endpoints.filter((e) => e.route !== '/mcp').map((e) => [e.route, e.requests]));

async function paidKey(app: FastifyInstance, capYen: number | null = null) {
  const k = generateApiKey();
  const record = await app.state.keys.create({ keyHash: k.hash, prefix: k.prefix, tier: 'paid', customerId: 'cus_direct' });
  if (capYen !== null) await app.state.keys.setMonthlyCap(record.id, capYen);
  return { key: k.key, id: record.id };
}

test('search_programs and get_program: answered directly, with the REST answer, counted and billed as the REST call', async (t) => {
  const app = await build(t);
  const { key, id } = await paidKey(app);
  const before = mcpDirectCalls.answered;

  const searched = await toolCall(app, key, 'search_programs', { q: '補助金', limit: 3 });
  assert.equal(searched.statusCode, 200, searched.body);
  const result = body(searched).result.structuredContent;
  const rest = body(await app.inject({ url: `/v1/programs/search?q=${encodeURIComponent('補助金')}&limit=3`, headers: { 'x-api-key': key } }));
  assert.deepEqual(
    result.results.map((r: { unified_id: string }) => r.unified_id),
    rest.results.map((r: { unified_id: string }) => r.unified_id),
  );
  assert.ok(result.results.length > 0);

  const detail = await toolCall(app, key, 'get_program', { unified_id: rest.results[0].unified_id });
  assert.equal(detail.statusCode, 200, detail.body);
  assert.equal(body(detail).result.structuredContent.status, 'ok', detail.body);
  assert.equal(mcpDirectCalls.answered - before, 2, 'both reads answered without inject');

  // Usage: the REST search made by the test and the read each tool call made (the /mcp
  // messages' own events are written once their responses have finished: not counted here).
  const summary = await app.state.usage.summary(id, jstMonth());
  assert.deepEqual(readsOf(summary.topEndpoints), { '/v1/programs/search': 2, '/v1/programs/:unified_id': 1 });
  assert.equal(summary.billableRequests, 3, 'the reads are billed, the messages are not');
});

test('a paid key at its cap: the direct read answers the 402 of the route and bills nothing', async (t) => {
  const app = await build(t);
  const { key, id } = await paidKey(app, 1);
  const before = mcpDirectCalls.answered;
  const res = await toolCall(app, key, 'search_programs', { q: '補助金', limit: 1 });
  assert.equal(res.statusCode, 200, res.body);
  const result = body(res).result;
  assert.equal(result.isError, true, res.body);
  assert.match(JSON.stringify(result.structuredContent.error), /402|cap/i);
  assert.equal(mcpDirectCalls.answered, before, 'a refusal is not an answer');
  assert.equal((await app.state.usage.summary(id, jstMonth())).billableRequests, 0);
});

test('a read the route answers otherwise (unknown id) goes to the route: its 404, counted once', async (t) => {
  const app = await build(t);
  const { key, id } = await paidKey(app);
  const before = mcpDirectCalls.answered;
  const res = await toolCall(app, key, 'get_program', { unified_id: 'UNI-does-not-exist' });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.body, /not found|not_found|no_data/i);
  assert.equal(mcpDirectCalls.answered, before);
  const summary = await app.state.usage.summary(id, jstMonth());
  assert.deepEqual(readsOf(summary.topEndpoints), { '/v1/programs/:unified_id': 1 });
  assert.equal(summary.billableRequests, 0, 'a 404 is not billed');
});
