// launchToolServer: the real tool server (started with the command the MCP
// package gives, @jp-support/mcp/launch) as a child process over stdio,
// talking HTTP to the real API server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { toolServerCommand } from '@jp-support/mcp/launch';
import { JpSupportError, launchToolServer } from '../src/index.ts';
import { build } from '../../api/test/helper.ts';

test('launchToolServer starts the tool server and lists its tools; a tool call reaches the API', async (t) => {
  const app = await build(t, { ANON_DAILY_LIMIT: '100000' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const client = await launchToolServer({ baseUrl: `http://127.0.0.1:${port}`, ...toolServerCommand() });
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
  await assert.rejects(launchToolServer({ baseUrl: '', command: process.execPath }), /baseUrl is required/);
});

test('launchToolServer has no default command: the client does not know where a tool server is installed', async () => {
  await assert.rejects(
    launchToolServer({ baseUrl: 'http://127.0.0.1:9' } as Parameters<typeof launchToolServer>[0]),
    (err: unknown) => err instanceof JpSupportError && /command is required/.test(err.message),
  );
});

test('the client source reaches nothing outside its package (no repository paths, no server vocabularies)', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const src = path.join(import.meta.dirname, '..', 'src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 5);
  for (const file of files) {
    const text = readFileSync(path.join(src, file), 'utf8');
    const depth = file.split(path.sep).length - 1;
    // a relative specifier climbing above src/ (../ once more than the file's depth) leaves the package
    const escapesSrc = new RegExp(`['"\`](\\.\\./){${depth + 1},}`);
    assert.doesNotMatch(text, escapesSrc, `${file} climbs out of the package`);
    assert.doesNotMatch(text, /packages\/(mcp|api|vocab)\b/, `${file} names another package's path`);
    assert.doesNotMatch(text, /(from\s+|import\()['"]@jp-support\/(mcp|api|vocab)/, `${file} imports a server package`);
  }
});
