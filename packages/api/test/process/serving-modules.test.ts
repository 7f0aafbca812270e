// What a serving process loads (issue 25, memory): a cluster worker imports
// process/serve.ts (the app) and ingest/ingest.ts (the catalogue's path), as
// server.ts does. The reading dictionary (kuromoji, ~350 MB while used) is an
// ingest-time tool and nodemailer is loaded with the first mail; the MCP
// SDK's server side (McpServer, its HTTP transport) and the tool list's JSON
// Schema conversion (zod-to-json-schema) with the first MCP request the fast
// path does not answer (decision 0431): none is in a serving process's
// module graph. Checked in a child process that
// records every module it resolves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SRC = path.resolve(import.meta.dirname, '..', '..', 'src');
// Written synchronously at exit (a pipe's asynchronous write would be cut short by process.exit).
const HOOK = `import { registerHooks } from 'node:module';
import { writeSync } from 'node:fs';
const seen = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r; } });
process.on('exit', () => writeSync(1, JSON.stringify(seen)));`;

test('a serving process loads neither the reading dictionary, the mailer nor the MCP SDK server side', () => {
  const script = `await import(${JSON.stringify(pathToFileURL(path.join(SRC, 'process', 'serve.ts')).href)});
await import(${JSON.stringify(pathToFileURL(path.join(SRC, 'ingest', 'ingest.ts')).href)});
process.exit(0);`;
  const r = spawnSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--import', `data:text/javascript,${encodeURIComponent(HOOK)}`, '--input-type=module', '-e', script],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 0, r.stderr);
  const loaded = JSON.parse(r.stdout) as string[];
  assert.ok(
    loaded.some((u) => u.includes('/node_modules/fastify/')),
    'the app was loaded',
  );
  assert.ok(
    loaded.some((u) => u.endsWith('/src/app.ts')),
    'the app was loaded',
  );
  assert.ok(
    loaded.some((u) => u.includes('/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js')),
    "the MCP fast path's types were loaded",
  );
  for (const tool of ['kuromoji', 'nodemailer', '@modelcontextprotocol/sdk/dist/esm/server', 'zod-to-json-schema']) {
    assert.deepEqual(
      loaded.filter((u) => u.includes(`/node_modules/${tool}/`)),
      [],
      `${tool} is not loaded by a serving process`,
    );
  }
});
