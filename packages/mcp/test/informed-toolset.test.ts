// The optional `informed` toolset: off by default (tools/list stays at the
// registry's default tools), on with JPSP_MCP_TOOLSETS=informed (stdio) or MCP_TOOLSETS=informed
// (the API's /mcp): the default tools and the toolset's over the typed client, calling the change
// feed, saved searches and the deadline calendar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from '../../api/test/helper.ts';
import { TOOLS, TOOLSETS, toolsWith, UnknownToolsetError } from '../src/tools/index.ts';
import { paidKey } from './fixtures.ts';

const BIN = path.join(import.meta.dirname, '..', 'src', 'bin.ts');
const INFORMED = TOOLSETS.informed.map((t) => t.name).sort();

test('registry: the default tools, plus the informed tools when named; an unknown toolset is refused', () => {
  assert.equal(toolsWith().length, TOOLS.length);
  assert.equal(toolsWith(['informed']).length, TOOLS.length + INFORMED.length);
  assert.equal(toolsWith(['informed']), toolsWith(['informed', 'informed']), 'one shared list per combination');
  assert.throws(() => toolsWith(['gossip']), UnknownToolsetError);
  assert.deepEqual(INFORMED, [
    'create_saved_search',
    'delete_saved_search',
    'get_deadline_calendar',
    'get_program_history',
    'get_saved_search',
    'list_changes',
    'list_saved_searches',
  ]);
});

async function stdioClient(t: { after(fn: () => unknown): void }, env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', BIN],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'informed-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  return client;
}

test('stdio: JPSP_MCP_TOOLSETS=informed adds the toolset; without it the default tools', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '1000' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const { key } = await paidKey(app);
  const base = { JPSP_API_BASE_URL: `http://127.0.0.1:${port}`, JPSP_API_KEY: key };

  const plain = await stdioClient(t, base);
  assert.equal((await plain.listTools()).tools.length, TOOLS.length);

  const informed = await stdioClient(t, { ...base, JPSP_MCP_TOOLSETS: 'informed' });
  const { tools } = await informed.listTools();
  assert.equal(tools.length, TOOLS.length + INFORMED.length);
  const create = tools.find((x) => x.name === 'create_saved_search')!;
  assert.equal(create.annotations?.readOnlyHint, false);
  assert.equal(tools.find((x) => x.name === 'delete_saved_search')!.annotations?.destructiveHint, true);

  const created = await informed.callTool({ name: 'create_saved_search', arguments: { name: '東京', prefecture: '東京都' } });
  assert.equal(created.isError, undefined, JSON.stringify(created.content));
  const id = (created.structuredContent as { record: { id: string } }).record.id;
  const listed = await informed.callTool({ name: 'list_saved_searches', arguments: {} });
  assert.deepEqual(
    (listed.structuredContent as { results: { id: string }[] }).results.map((r) => r.id),
    [id],
  );
  const got = await informed.callTool({ name: 'get_saved_search', arguments: { id } });
  assert.deepEqual(
    (got.structuredContent as { record: { query: unknown } }).record.query,
    { prefecture: '東京都', include_excluded: false },
    'stored as validated, defaults filled',
  );
  const feed = await informed.callTool({ name: 'list_changes', arguments: { limit: 5 } });
  assert.equal(feed.isError, undefined, JSON.stringify(feed.content));
  assert.equal(typeof (feed.structuredContent as { next_cursor: string }).next_cursor, 'string');
  const calendar = await informed.callTool({ name: 'get_deadline_calendar', arguments: { saved_search_id: id, include_past: true } });
  assert.equal(calendar.isError, undefined, JSON.stringify(calendar.content));
  for (const e of (calendar.structuredContent as { results: { prefecture: string }[] }).results) assert.equal(e.prefecture, '東京都');
  const removed = await informed.callTool({ name: 'delete_saved_search', arguments: { id } });
  assert.deepEqual((removed.structuredContent as { deleted: boolean }).deleted, true);
  const again = await informed.callTool({ name: 'delete_saved_search', arguments: { id } });
  assert.equal(again.isError, true, 'deleting twice: not found');
});

test('/mcp: the server setting MCP_TOOLSETS=informed adds the toolset; without it the default tools', async (t) => {
  for (const [env, count] of [
    [{}, TOOLS.length],
    [{ MCP_TOOLSETS: 'informed' }, TOOLS.length + INFORMED.length],
  ] as const) {
    const app = await build(t, { ...env });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const client = new Client({ name: 'http-informed', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    t.after(() => client.close());
    const { tools } = await client.listTools();
    assert.equal(tools.length, count);
    if (count > TOOLS.length) {
      const history = await client.callTool({ name: 'get_program_history', arguments: { unified_id: 'UNI-000780f85e' } });
      assert.equal(history.isError, undefined, JSON.stringify(history.content));
    }
  }
  await assert.rejects(build(t, { MCP_TOOLSETS: 'gossip' }), /unknown toolset 'gossip'/);
});
