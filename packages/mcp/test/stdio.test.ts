// The stdio server as an MCP host runs it: `node src/bin.ts` as a child
// process, against the real API listening on a random port. Lists the
// registry's tools and calls each one with the argument table. The API serves the
// bundled dataset plus the fixture bids (the dataset has none), so that the
// bid tools are called on a real record too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build, testCatalogWithBids } from '../../api/test/helper.ts';
import { argumentTable, knownUnavailable, lookupIds, paidKey } from './fixtures.ts';
import { TOOLS } from '../src/tools/index.ts';

const BIN = path.join(import.meta.dirname, '..', 'src', 'bin.ts');

test('stdio: every tool of the registry listed, each one called', async (t) => {
  const app = await build(t, {}, {}, { catalog: await testCatalogWithBids() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const { key } = await paidKey(app);
  const ids = await lookupIds(app);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--disable-warning=ExperimentalWarning', BIN],
    env: { PATH: process.env.PATH ?? '', JPSP_API_BASE_URL: `http://127.0.0.1:${address.port}`, JPSP_API_KEY: key },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());

  const { tools } = await client.listTools();
  assert.equal(tools.length, TOOLS.length);
  const table = argumentTable(ids);
  assert.deepEqual(Object.keys(table).sort(), tools.map((x) => x.name).sort(), 'the table covers every tool');
  const unavailable = knownUnavailable(ids);

  for (const tool of tools) {
    await t.test(tool.name, { todo: unavailable.has(tool.name) ? 'no data for this record set in the test catalogue' : undefined }, async () => {
      const r = await client.callTool({ name: tool.name, arguments: table[tool.name] });
      const body = r.structuredContent as Record<string, any>;
      assert.ok(body, 'structuredContent present');
      assert.equal(r.isError, undefined, `isError: ${JSON.stringify(body?.error)}`);
      assert.deepEqual(JSON.parse((r.content as { text: string }[])[0].text), body, 'text = structured JSON');
      assert.ok(['ok', 'empty', 'no_data', 'insufficient_data'].includes(body.status), `status ${body.status}`);
      assert.equal(typeof body.result_count, 'number');
      if (body.error) {
        assert.equal(body.status, 'no_data', 'only the no-data tools answer with an error');
        assert.equal(body.error.code, 'no_matching_records');
      }
    });
  }
});
