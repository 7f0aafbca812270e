// tools/list and tools/call over the SDK's in-memory transport, with the real
// client calling the real app in-process (inject). Also the input and error
// conventions: bad input and an API 404 are both isError with error.detail,
// the session survives both.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JpSupportClient, injectTransport } from '@jp-support/client';
import { build } from '../../api/test/helper.ts';
import { TOOL_NAMES, TOOLS } from '../src/tools/index.ts';
import { connectTools, lookupIds, paidKey } from './fixtures.ts';

async function connect(t: Parameters<typeof build>[0]) {
  const app = await build(t);
  const { key } = await paidKey(app);
  const api = new JpSupportClient({ transport: injectTransport(app), apiKey: key, maxRetries: 0 });
  return { app, key, client: await connectTools(t, api) };
}

const sc = (r: unknown) => (r as { structuredContent: Record<string, any> }).structuredContent;

test("lists exactly the registry's tools, read-only, each with described inputs and an output schema", async (t) => {
  const { client } = await connect(t);
  assert.equal(client.getServerVersion()?.name, 'jp-support-programs');
  const { tools } = await client.listTools();
  assert.equal(tools.length, TOOL_NAMES.length);
  assert.deepEqual(tools.map((x) => x.name).sort(), [...TOOL_NAMES].sort());
  assert.equal(new Set(TOOL_NAMES).size, TOOL_NAMES.length, 'no name twice');
  for (const tool of tools) {
    assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    assert.equal(tool.annotations?.openWorldHint, false, tool.name);
    assert.ok(tool.description && tool.description.length > 20, tool.name);
    assert.equal(tool.outputSchema?.type, 'object', tool.name);
    for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      // limit, offset and the row shape are explained once, in the server's instructions
      if (field === 'limit' || field === 'offset') continue;
      if (field === 'fields' && JSON.stringify((schema as { enum?: unknown }).enum) === '["compact","full"]') continue;
      assert.ok((schema as { description?: string }).description, `${tool.name}.${field} has a description`);
    }
  }
  const getProgram = tools.find((x) => x.name === 'get_program')!;
  assert.deepEqual(getProgram.inputSchema.required, ['unified_id']);
  const search = tools.find((x) => x.name === 'search_programs')!;
  assert.equal((search.inputSchema.properties as any).limit.maximum, 100);
});

test('the tools/list answer an agent reads before its first question is at most 50,000 characters', async (t) => {
  const { client } = await connect(t);
  const list = await client.listTools();
  assert.equal(list.tools.length, TOOLS.length);
  // The answer as it travels: the JSON-RPC result the client received, serialised.
  const size = JSON.stringify(list).length;
  assert.ok(size <= 50_000, `tools/list is ${size} characters`);
  for (const tool of list.tools) {
    assert.doesNotMatch(JSON.stringify(tool), /"\$schema"/, `${tool.name} publishes no $schema`);
    // when to use it, and when not (or what it does not hold)
    assert.match(tool.description ?? '', /\b(use|not)\b|not held|holds no|\(from search_|by its |\(read it with/i, `${tool.name} says when to use it`);
  }
});

test('search_programs: structured content equals the text, rows come from the catalogue', async (t) => {
  const { client } = await connect(t);
  const r = await client.callTool({ name: 'search_programs', arguments: { q: '補助金', limit: 3, fields: 'minimal' } });
  assert.equal(r.isError, undefined);
  const body = sc(r);
  assert.deepEqual(JSON.parse((r.content as { text: string }[])[0].text), body);
  assert.equal(body.results.length, 3);
  assert.equal(body.status, 'ok');
  assert.equal(body.result_count, 3);
  assert.ok(body.total >= 3);
  assert.deepEqual(Object.keys(body.results[0]).sort(), [
    'amount_max_man_yen',
    'authority_name',
    'official_url',
    'prefecture',
    'primary_name',
    'tier',
    'unified_id',
  ]);
});

test('limit out of range is clamped with input_warnings, not rejected', async (t) => {
  const { client } = await connect(t);
  const big = sc(await client.callTool({ name: 'search_programs', arguments: { limit: 10000 } }));
  assert.equal(big.error, undefined);
  assert.equal(big.limit, 100);
  assert.equal(big.results.length, 100);
  assert.equal(big.input_warnings[0].code, 'limit_capped');
  const zero = sc(await client.callTool({ name: 'search_programs', arguments: { limit: 0 } }));
  assert.equal(zero.results.length, 1);
  assert.equal(zero.input_warnings[0].code, 'limit_raised');
});

test('bad input answers isError with error {code, message, detail} and the empty payload keys; the session survives', async (t) => {
  const { client } = await connect(t);
  const empty = await client.callTool({ name: 'batch_get_programs', arguments: { unified_ids: [] } });
  assert.equal(empty.isError, true);
  assert.equal(sc(empty).status, 'error');
  assert.equal(sc(empty).error.code, 'empty_input');
  assert.match(sc(empty).error.detail, /^Invalid arguments: /);
  assert.deepEqual(sc(empty).results, []);
  assert.deepEqual(sc(empty).not_found, []);

  const ids = Array.from({ length: 51 }, (_, i) => `UNI-${String(i).padStart(10, '0')}`);
  const over = sc(await client.callTool({ name: 'batch_get_programs', arguments: { unified_ids: ids } }));
  assert.equal(over.error.code, 'limit_exceeded');
  assert.match(over.error.message, /50/);

  const badEnumResult = await client.callTool({ name: 'search_programs', arguments: { tier: ['Z'] } });
  assert.equal(badEnumResult.isError, true);
  const badEnum = sc(badEnumResult);
  assert.equal(badEnum.error.code, 'invalid_enum');
  assert.equal(badEnum.error.detail, 'Invalid arguments: tier.0: must be one of S, A, B, C, X');
  assert.deepEqual(badEnum.results, []);
  assert.ok(badEnum.error.retry_with.includes('S'));

  const missing = sc(await client.callTool({ name: 'get_program', arguments: {} }));
  assert.equal(missing.error.code, 'invalid_field');
  assert.match(missing.error.message, /unified_id is required/);

  const pattern = sc(await client.callTool({ name: 'get_law', arguments: { unified_id: 'not-a-law' } }));
  assert.equal(pattern.error.code, 'invalid_field');

  const noChecks = sc(await client.callTool({ name: 'check_exclusions', arguments: { program_ids: [] } }));
  assert.equal(noChecks.error.code, 'empty_input');
  assert.equal(noChecks.checked_rules, 0);
  assert.deepEqual(noChecks.hits, []);

  // still alive
  const meta = await client.callTool({ name: 'get_meta', arguments: {} });
  assert.equal(meta.isError, undefined);
  assert.ok(sc(meta).total_programs > 1000);
});

test('an API 404 becomes isError with the status and detail; the session survives', async (t) => {
  const { app, key, client } = await connect(t);
  const r = await client.callTool({ name: 'get_program', arguments: { unified_id: 'UNI-doesnotexist' } });
  assert.equal(r.isError, true);
  const body = sc(r);
  assert.equal(body.error.status, 404);
  assert.equal(body.error.code, 'not_found');
  assert.match(body.error.message, /404/);
  assert.match(body.error.message, /UNI-doesnotexist/);
  assert.equal(body.record, null);
  // the detail is REST's own {detail} for the same request
  const rest = await app.inject({ method: 'GET', url: '/v1/programs/UNI-doesnotexist', headers: { 'x-api-key': key } });
  assert.equal(rest.statusCode, 404);
  assert.equal(body.error.detail, JSON.parse(rest.body).detail);
  const again = await client.callTool({ name: 'get_meta', arguments: {} });
  assert.equal(again.isError, undefined);
});

test('an invalid key becomes isError 401', async (t) => {
  const app = await build(t);
  const api = new JpSupportClient({ transport: injectTransport(app), apiKey: `am_${'x'.repeat(40)}`, maxRetries: 0 });
  const client = await connectTools(t, api);
  const r = await client.callTool({ name: 'get_meta', arguments: {} });
  assert.equal(r.isError, true);
  assert.equal(sc(r).error.status, 401);
  assert.equal(sc(r).error.code, 'unauthorized');
});

test('prefecture aliases are normalised; unknown ones are dropped with a warning', async (t) => {
  const { client } = await connect(t);
  const tokyo = sc(await client.callTool({ name: 'search_programs', arguments: { prefecture: 'Tokyo', limit: 5 } }));
  assert.ok(tokyo.results.length > 0);
  assert.ok(tokyo.results.every((p: { prefecture: string }) => p.prefecture === '東京都'));
  assert.equal(tokyo.input_warnings[0].code, 'normalised');
  const unknown = sc(await client.callTool({ name: 'search_programs', arguments: { prefecture: 'Atlantis', limit: 5 } }));
  assert.equal(unknown.input_warnings[0].code, 'unknown_prefecture');
  assert.ok(unknown.results.length > 0);
});

test('batch collapses duplicates in order and lists unknown ids', async (t) => {
  const { app, client } = await connect(t);
  const ids = await lookupIds(app);
  const body = sc(await client.callTool({ name: 'batch_get_programs', arguments: { unified_ids: [ids.program2, ids.program, ids.program2, 'UNI-nope'] } }));
  assert.deepEqual(
    body.results.map((r: { unified_id: string }) => r.unified_id),
    [ids.program2, ids.program],
  );
  assert.deepEqual(body.not_found, ['UNI-nope']);
});

test('no-data tools say so in their description and answer status no_data with their empty payload keys, not isError', async (t) => {
  const { app, client } = await connect(t);
  const ids = await lookupIds(app);
  const { tools } = await client.listTools();
  const description = (name: string) => tools.find((x) => x.name === name)?.description ?? '';
  const calls: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['search_court_decisions', { q: 'x' }, { total: 0, results: [] }],
    ['get_court_decision', { unified_id: 'HAN-0123456789' }, { record: null }],
    ['find_precedents_by_statute', { law_unified_id: ids.lawId }, { total: 0, results: [] }],
    ['search_invoice_registrants', { q: 'x' }, { total: 0, results: [] }],
    ['search_acceptance_stats_am', { program_name: 'x' }, { total: 0, results: [] }],
    ['find_cases_by_law', { law_unified_id: ids.lawId, include_enforcement: false }, { court_decisions: [], enforcement_cases: [], results: [] }],
  ];
  for (const [name, args, empty] of calls) {
    assert.match(
      description(name),
      /no court decisions|court rulings are not held|no invoice registrations|no acceptance statistics/i,
      `${name} says what it does not hold`,
    );
    assert.match(description(name), /status no_data/, `${name} says how it answers`);
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError, undefined, name);
    const body = sc(r);
    assert.equal(body.status, 'no_data', name);
    assert.equal(body.result_count, 0, name);
    assert.equal(body.error.code, 'no_matching_records', name);
    assert.ok(body.explanation.length > 20, `${name} explains`);
    for (const [key, value] of Object.entries(empty)) assert.deepEqual(body[key], value, `${name}.${key}`);
  }
  // find_cases_by_law with enforcement: the part it holds answers as usual, the part it does not is named.
  const partial = sc(await client.callTool({ name: 'find_cases_by_law', arguments: { law_unified_id: ids.lawId } }));
  assert.ok(['ok', 'empty'].includes(partial.status));
  assert.deepEqual(partial.no_data, ['court_decisions']);
  assert.deepEqual(partial.court_decisions, []);
});

test('program resource: program://{unified_id} returns the program JSON', async (t) => {
  const { app, client } = await connect(t);
  const ids = await lookupIds(app);
  const templates = await client.listResourceTemplates();
  assert.equal(templates.resourceTemplates[0].uriTemplate, 'program://{unified_id}');
  const res = await client.readResource({ uri: `program://${ids.program}` });
  const program = JSON.parse((res.contents[0] as { text: string }).text);
  assert.equal(program.unified_id, ids.program);
  assert.ok('source_mentions' in program);
});

test('the protocol revision is 2025-06-18', async (t) => {
  const { client } = await connect(t);
  // The SDK client asks for its latest revision; the server answers with ours, which the client accepts.
  const transport = client.transport as { protocolVersion?: string } | undefined;
  assert.ok(transport);
  const { negotiateProtocol } = await import('../src/lib/protocol.ts');
  assert.equal(negotiateProtocol('2025-11-25'), '2025-06-18');
  assert.equal(negotiateProtocol('2025-03-26'), '2025-03-26');
  assert.equal(negotiateProtocol('1999-01-01'), '2025-06-18');
});

test('tools/list is computed once and answers the same to every server instance', async (t) => {
  const first = await connect(t);
  const second = await connect(t);
  const a = await first.client.listTools();
  const b = await second.client.listTools();
  const c = await first.client.listTools();
  assert.equal(a.tools.length, TOOL_NAMES.length);
  assert.deepEqual(b, a);
  assert.deepEqual(c, a);
});
