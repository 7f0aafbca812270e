// The shape of the package: one file per tool, named after it, listed once
// in the registry in the reference order; tools reach the API only through
// the typed client (no path strings, no generic request); the server uses no
// private SDK member.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOLS, TOOL_NAMES, TOOLSETS } from '../src/tools/index.ts';

const SRC = path.join(import.meta.dirname, '..', 'src');
const read = (file: string) => readFileSync(path.join(SRC, file), 'utf8');
const sources = (dir: string) =>
  readdirSync(path.join(SRC, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));

test('the tools (plus the optional toolsets), one file each, named after the tool (snake_case name, kebab-case file)', async () => {
  const files = readdirSync(path.join(SRC, 'tools')).filter((f) => f !== 'index.ts');
  const optional = Object.values(TOOLSETS).flat();
  assert.equal(files.length, TOOLS.length + optional.length);
  assert.deepEqual(files.sort(), [...TOOL_NAMES, ...optional.map((t) => t.name)].map((n) => `${n.replaceAll('_', '-')}.ts`).sort());
  for (const tool of [...TOOLS, ...optional]) {
    const file = path.join('tools', `${tool.name.replaceAll('_', '-')}.ts`);
    // A tool is written out (defineTool) or made by the record-set factory from its spec (lib/record-set-tools.ts).
    assert.equal(read(file).match(/\b(defineTool|recordSearchTool|recordGetTool)\(/g)?.length, 1, `${tool.name}: one tool per file`);
    const exported = Object.values((await import(path.join(SRC, file))) as Record<string, { name?: unknown; run?: unknown }>).filter(
      (value) => typeof value?.run === 'function',
    );
    assert.deepEqual(
      exported.map((def) => def.name),
      [tool.name],
      `${tool.name}: the file defines it`,
    );
    if (TOOLS.includes(tool)) assert.equal(tool.annotations.readOnlyHint, true, `${tool.name} is read-only`);
  }
});

test('the registry keeps the reference order: 38 core tools, then the 17 entity-fact tools', () => {
  assert.equal(TOOL_NAMES[0], 'search_programs');
  assert.equal(TOOL_NAMES[37], 'regulatory_prep_pack');
  assert.equal(TOOL_NAMES[38], 'search_tax_incentives');
  assert.equal(TOOL_NAMES[54], 'list_tax_sunset_alerts');
});

test('tools call typed client methods only: no path strings, no generic request', () => {
  for (const file of [...sources('tools'), ...sources('lib'), ...sources('resources'), 'server.ts']) {
    const text = read(file);
    assert.doesNotMatch(text, /['"`]\/(v1|meta)\b/, `${file} builds a path`);
    assert.doesNotMatch(text, /\.request(WithResponse)?\s*[<(]/, `${file} calls the generic request method`);
  }
});

test('no private SDK members', () => {
  for (const file of [...sources('lib'), ...sources('resources'), ...sources('transports'), 'server.ts', 'bin.ts']) {
    assert.doesNotMatch(read(file), /\._(requestHandlers|oninitialize|serverInfo|capabilities|registeredTools)\b/, `${file} reaches into the SDK`);
  }
});
