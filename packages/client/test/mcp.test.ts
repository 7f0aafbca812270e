// launchToolServer: the real tool server (packages/mcp/src/bin.ts) as a child
// process over stdio, talking HTTP to the real API server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { JpSupportError, launchToolServer } from '../src/index.ts';
import { build } from '../../api/test/helper.ts';

test('launchToolServer starts the tool server and lists its tools; a tool call reaches the API', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '100000' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const client = await launchToolServer({ baseUrl: `http://127.0.0.1:${port}` });
  t.after(() => client.close());
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  assert.ok(names.includes('search_programs'), `search_programs listed (got ${names.length} tools)`);
  assert.ok(names.includes('get_meta'));
  assert.equal(new Set(names).size, names.length, 'tool names are unique');
  const meta = await client.callTool({ name: 'get_meta', arguments: {} });
  assert.notEqual(meta.isError, true);
  const text = (meta.content as { type: string; text?: string }[]).find((c) => c.type === 'text')?.text ?? '';
  assert.match(text, /total_programs/);
});

test('launchToolServer reports a command that cannot start', async () => {
  await assert.rejects(
    launchToolServer({ baseUrl: 'http://127.0.0.1:9', command: process.execPath, args: ['-e', 'process.exit(3)'], stderr: 'ignore' }),
    JpSupportError,
  );
  await assert.rejects(launchToolServer({ baseUrl: '' }), /baseUrl is required/);
});
