// The committed generated types match docs/openapi.json, and the package
// compiles to publishable JS + declarations that load without dependencies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_INPUT, DEFAULT_OUTPUT, generateFromFile } from '../../../scripts/gen-client-types.ts';

const root = path.resolve(import.meta.dirname, '../../..');

test('generated types are in sync with docs/openapi.json (run `npm run gen:client-types`)', () => {
  const expected = generateFromFile(path.join(root, DEFAULT_INPUT));
  const committed = readFileSync(path.join(root, DEFAULT_OUTPUT), 'utf8');
  assert.ok(committed === expected, 'packages/client/src/generated/openapi.ts differs from what docs/openapi.json generates: run `npm run gen:client-types`');
  const doc = JSON.parse(readFileSync(path.join(root, DEFAULT_INPUT), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      if (op.operationId) assert.match(committed, new RegExp(`\\b${op.operationId}: \\{`), `operation ${op.operationId} is in Operations`);
    }
  }
});

test('the generator turns schema keywords into the expected TypeScript', async () => {
  const { generateClientTypes } = await import('../../../scripts/gen-client-types.ts');
  const out = generateClientTypes({
    components: {
      schemas: {
        'def-0': {
          title: 'Thing',
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer' }, 'odd-key': { type: ['string', 'null'] } },
          additionalProperties: true,
        },
      },
    },
    paths: {
      '/v1/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [
            { in: 'path', name: 'id', required: true, schema: { type: 'string' } },
            { in: 'query', name: 'tag', schema: { type: 'array', items: { enum: ['a', 'b'] } } },
          ],
          responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/def-0' } } } } },
        },
      },
    },
  });
  assert.match(out, /export type Thing = \{\n {2}id: number;\n {2}"odd-key"\?: string \| null;\n {2}\[key: string\]: unknown;\n\};/);
  assert.match(out, /export type GetThingParams = \{\n {2}id: string;\n\};/);
  assert.match(out, /tag\?: Array<"a" \| "b"> \| \("a" \| "b"\);/);
  assert.match(out, /export type GetThingResponse = Thing;/);
  assert.match(out, /getThing: \{ method: "GET"; path: "\/v1\/things\/\{id\}"; query: GetThingQuery; params: GetThingParams; response: GetThingResponse \};/);
});

test('`npm run build` (tsc -p packages/client/tsconfig.build.json) emits JS + .d.ts that load with no dependencies', async (t) => {
  const out = mkdtempSync(path.join(tmpdir(), 'jpsp-client-build-'));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  const tsc = path.join(root, 'node_modules/.bin/tsc');
  execFileSync(tsc, ['-p', path.join(root, 'packages/client/tsconfig.build.json'), '--outDir', out], { cwd: root, stdio: 'pipe' });
  for (const f of ['index.js', 'index.d.ts', 'client.js', 'errors.d.ts', 'transport.js', 'mcp.js', 'resources/am.js', 'generated/openapi.d.ts']) {
    assert.ok(existsSync(path.join(out, f)), `${f} emitted`);
  }
  const js = readFileSync(path.join(out, 'client.js'), 'utf8');
  assert.doesNotMatch(js, /from ["'][^."']/, 'no bare (package) imports in the runtime code');
  assert.match(js, /from "\.\/errors\.js"/, '.ts import paths rewritten to .js');
  const mod = (await import(pathToFileURL(path.join(out, 'index.js')).href)) as typeof import('../src/index.ts');
  const client = new mod.JpSupportClient({ baseUrl: 'http://127.0.0.1:9' });
  assert.equal(typeof client.programs.search, 'function');
  assert.equal(new mod.RateLimitError(429, { detail: 'x' }, { 'retry-after': '5' }).retryAfter, 5);
});
