// Streamable HTTP at /mcp on the API server: the official client lists and
// calls tools; the REST calls a tool makes count as usage (and are billed) for
// the caller's paid key; /mcp itself is not metered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from '../../api/test/helper.ts';
import { paidKey } from './fixtures.ts';
import { TOOLS } from '../src/tools/index.ts';

const jstMonth = () => new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 7);

test('/mcp: list and call over Streamable HTTP; tool calls are usage of the paid key', async (t) => {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const { key, id } = await paidKey(app);

  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
    requestInit: { headers: { 'X-API-Key': key } },
  });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  assert.equal(transport.protocolVersion, '2025-06-18');

  const { tools } = await client.listTools();
  assert.equal(tools.length, TOOLS.length);

  const before = await app.state.usage.summary(id, jstMonth());
  const r = await client.callTool({ name: 'search_programs', arguments: { q: '補助金', limit: 2 } });
  assert.equal(r.isError, undefined);
  assert.equal((r.structuredContent as { results: unknown[] }).results.length, 2);
  const meta = await client.callTool({ name: 'get_meta', arguments: {} });
  assert.equal(meta.isError, undefined);

  // Usage of the /mcp messages is written once their answers have left.
  const deadline = Date.now() + 5000;
  let after = await app.state.usage.summary(id, jstMonth());
  // Each round yields to the event loop: the group commit's timer must get its turn (SQLite reads alone never yield).
  while (after.requests - before.requests < 4 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 5));
    after = await app.state.usage.summary(id, jstMonth());
  }
  assert.equal(after.requests - before.requests, 4, 'two REST calls and the two tools/call messages counted');
  assert.equal(after.billableRequests - before.billableRequests, 2, 'only the REST calls are billed');
  assert.ok(after.spendYen > before.spendYen);
  const routes = after.topEndpoints.map((e) => e.route);
  assert.ok(routes.includes('/v1/programs/search'));
  assert.ok(routes.includes('/mcp'), 'each /mcp message is a usage event of the key (not billed)');

  // error paths over HTTP: bad input, then a 404, then the session still works
  const bad = await client.callTool({ name: 'batch_get_programs', arguments: { unified_ids: [] } });
  assert.equal(bad.isError, true);
  assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'empty_input');
  const missing = await client.callTool({ name: 'get_program', arguments: { unified_id: 'UNI-nope' } });
  assert.equal(missing.isError, true);
  const ok = await client.callTool({ name: 'get_meta', arguments: {} });
  assert.equal(ok.isError, undefined);
});

test('/mcp: an invalid key is refused with 401 before any tool runs; GET answers 405', async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': `am_${'y'.repeat(40)}` },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  assert.equal(res.statusCode, 401);
  const get = await app.inject({ method: 'GET', url: '/mcp' });
  assert.equal(get.statusCode, 405);
});

test('/mcp: initialize answers protocol revision 2025-06-18 and is absent from the OpenAPI document', async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  assert.equal(res.statusCode, 200);
  const body = JSON.parse(res.body);
  assert.equal(body.result.protocolVersion, '2025-06-18');
  assert.equal(body.result.serverInfo.name, 'jp-support-programs');
  const doc = JSON.parse((await app.inject({ method: 'GET', url: '/v1/openapi.json' })).body);
  assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/mcp')));
});
