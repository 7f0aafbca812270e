// The reads an MCP tool makes are answered in process from the routes' own
// answer functions (routes/operation.ts `answered`, plugins/in-process.ts),
// not by a second pass through Fastify; they are validated, limited, counted
// and billed as the REST call is, and anything the route would answer
// otherwise goes to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { build, body } from '../helper.ts';
import { generateApiKey } from '../../src/access/keys.ts';
import { jstMonth } from '../../src/lib/time.ts';
import { inProcessCalls, refusal } from '../../src/plugins/in-process.ts';
import { resolvePolicy, type RouteDeclaration } from '../../src/plugins/route-policy.ts';
import { DATA_READ } from '../../src/routes/operation.ts';

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
  const before = inProcessCalls.answered;

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
  assert.equal(inProcessCalls.answered - before, 2, 'both reads answered without inject');

  // Usage: the REST search made by the test and the read each tool call made (the /mcp
  // messages' own events are written once their responses have finished: not counted here).
  const summary = await app.state.usage.summary(id, jstMonth());
  assert.deepEqual(readsOf(summary.topEndpoints), { '/v1/programs/search': 2, '/v1/programs/:unified_id': 1 });
  assert.equal(summary.billableRequests, 3, 'the reads are billed, the messages are not');
});

test('a paid key at its cap: the direct read answers the 402 of the route and bills nothing', async (t) => {
  const app = await build(t);
  const { key, id } = await paidKey(app, 1);
  const before = inProcessCalls.answered;
  const res = await toolCall(app, key, 'search_programs', { q: '補助金', limit: 1 });
  assert.equal(res.statusCode, 200, res.body);
  const result = body(res).result;
  assert.equal(result.isError, true, res.body);
  assert.match(JSON.stringify(result.structuredContent.error), /402|cap/i);
  assert.equal(inProcessCalls.answered, before, 'a refusal is not an answer');
  assert.equal((await app.state.usage.summary(id, jstMonth())).billableRequests, 0);
});

test('a read the route answers otherwise (unknown id) goes to the route: its 404, counted once', async (t) => {
  const app = await build(t);
  const { key, id } = await paidKey(app);
  const before = inProcessCalls.answered;
  const res = await toolCall(app, key, 'get_program', { unified_id: 'UNI-does-not-exist' });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(res.body, /not found|not_found|no_data/i);
  assert.equal(inProcessCalls.answered, before);
  const summary = await app.state.usage.summary(id, jstMonth());
  assert.deepEqual(readsOf(summary.topEndpoints), { '/v1/programs/:unified_id': 1 });
  assert.equal(summary.billableRequests, 0, 'a 404 is not billed');
});

/** A caller as the /mcp route hands it on: an anonymous address (its identity is all callInProcess reads of it). */
function anonymousCaller(app: FastifyInstance): FastifyRequest {
  return { id: 'req-in-process', log: app.log, identity: { kind: 'anonymous', addressHash: 'in-process-test' } } as unknown as FastifyRequest;
}

test('every route that declares its answer gives in process the body it sends over HTTP; the others are left to the route', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '100000' });
  const get = async (url: string) => body(await app.inject({ url }));
  const programId = (await get('/v1/programs/search?limit=1')).results[0].unified_id;
  const loanId = (await get('/v1/loans/search?limit=1')).results[0].id;
  const lawId = (await get('/v1/laws/search?limit=1')).results[0].id;
  const json = { 'content-type': 'application/json' };
  const calls: { method: string; url: string; payload?: object }[] = [
    { method: 'GET', url: `/v1/programs/search?q=${encodeURIComponent('補助金')}&limit=3&facets=tier` },
    { method: 'GET', url: `/v1/programs/${encodeURIComponent(programId)}?fields=minimal` },
    { method: 'POST', url: '/v1/programs/batch', payload: { unified_ids: [programId, 'UNI-none'] } },
    { method: 'POST', url: '/v1/programs/match', payload: { prefecture: '東京都', need: '設備投資' } },
    { method: 'GET', url: `/v1/loans/search?q=${encodeURIComponent('創業')}&limit=2` },
    { method: 'GET', url: `/v1/loans/${encodeURIComponent(loanId)}` },
    { method: 'GET', url: `/v1/laws/${encodeURIComponent(lawId)}/articles?limit=2` },
    { method: 'GET', url: `/v1/laws/${encodeURIComponent(lawId)}/revisions` },
    { method: 'GET', url: `/v1/am/open_programs?prefecture=${encodeURIComponent('東京都')}&limit=2` },
    { method: 'GET', url: '/v1/am/enums/tier' },
    { method: 'GET', url: `/v1/am/intent?query=${encodeURIComponent('創業の補助金')}` },
  ];
  const before = inProcessCalls.answered;
  for (const call of calls) {
    const rest = await app.inject({ method: call.method, url: call.url, ...(call.payload ? { headers: json, payload: JSON.stringify(call.payload) } : {}) });
    assert.equal(rest.statusCode, 200, `${call.url}: ${rest.body}`);
    const url = new URL(call.url, 'http://in.process');
    const answer = await app.callInProcess(anonymousCaller(app), {
      method: call.method,
      path: url.pathname,
      query: url.searchParams,
      headers: call.payload ? json : {},
      ...(call.payload ? { body: JSON.stringify(call.payload) } : {}),
    });
    assert.ok(answer, `${call.url}: answered in process`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body, rest.body, `${call.url}: the same body`);
  }
  assert.equal(inProcessCalls.answered - before, calls.length);

  // Left to the route (null): a value the schema refuses, an id the answer does not know, an export, a route without an answer, no route.
  for (const url of [
    '/v1/programs/search?limit=1000',
    '/v1/programs/UNI-does-not-exist',
    '/v1/programs/search?format=csv&max_rows=1',
    '/v1/loans/search?format=jsonl&max_rows=1',
    '/v1/exclusions/rules',
    '/v1/no-such-route',
  ]) {
    const u = new URL(url, 'http://in.process');
    assert.equal(await app.callInProcess(anonymousCaller(app), { method: 'GET', path: u.pathname, query: u.searchParams, headers: {} }), null, url);
  }
  // A body that is not plain JSON of the right type is the route's to refuse.
  for (const payload of ['{"unified_ids": "UNI-1"}', '{"__proto__": {}, "unified_ids": ["x"]}', 'not json']) {
    const answer = await app.callInProcess(anonymousCaller(app), {
      method: 'POST',
      path: '/v1/programs/batch',
      query: new URLSearchParams(),
      headers: json,
      body: payload,
    });
    assert.equal(answer, null, payload);
  }
});

test('a record-set search and an /v1/am read made by tools are answered in process and counted as the REST calls', async (t) => {
  const app = await build(t);
  const { key, id } = await paidKey(app);
  const before = inProcessCalls.answered;
  const loans = await toolCall(app, key, 'search_loan_programs', { q: '創業', limit: 2 });
  assert.equal(loans.statusCode, 200, loans.body);
  assert.notEqual(body(loans).result.isError, true, loans.body);
  const open = await toolCall(app, key, 'list_open_programs', { prefecture: '東京都', limit: 2 });
  assert.equal(open.statusCode, 200, open.body);
  assert.notEqual(body(open).result.isError, true, open.body);
  assert.ok(inProcessCalls.answered - before >= 2, 'both tools read in process');
  const summary = await app.state.usage.summary(id, jstMonth());
  const reads = readsOf(summary.topEndpoints);
  assert.ok(reads['/v1/loans/search'] >= 1 && reads['/v1/am/open_programs'] >= 1, JSON.stringify(reads));
  assert.equal(
    summary.billableRequests,
    Object.values(reads).reduce((a, b) => a + b, 0),
    'every read billed once, the messages not',
  );
});

test('a route whose request would run more than the caller, counter and usage is refused an answer in process at start', () => {
  const policy = (declaration: RouteDeclaration) => resolvePolicy({ method: 'GET', url: '/x/:id', config: declaration });
  assert.equal(refusal({}, policy(DATA_READ)), null);
  assert.equal(refusal({ preHandler: [] }, policy(DATA_READ)), null, 'an empty hook list is no hook');
  assert.match(refusal({}, policy({ access: 'key' }))!, /access 'key'/);
  assert.match(refusal({}, policy({ ...DATA_READ, extraLimit: 'writes' }))!, /extra limit/);
  assert.match(refusal({}, policy({ access: 'public', counter: 'daily', units: 'jsonrpc-message' }))!, /jsonrpc-message/);
  assert.match(refusal({ preHandler: async () => undefined }, policy(DATA_READ))!, /hooks of its own \(preHandler\)/);
  assert.match(refusal({ constraints: { version: '1.0.0' } }, policy(DATA_READ))!, /constraints/);
  assert.match(refusal({ schema: { headers: {} } }, policy(DATA_READ))!, /headers schema/);
});
