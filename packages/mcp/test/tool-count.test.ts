// The tool count is kept in one place, the registry (TOOLS.length; decision
// 0321). Code and tests read it there; the published texts that state it as a
// number (the repository's README, the package's README, its package.json and
// server.json descriptions) must state the registry's, and nothing else under
// docs/ or in the code writes it down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TOOLS } from '../src/tools/index.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** "55 tools", "55 read-only tools", "(55 tools,", "55-tool". */
const STATED_COUNT = /\b(\d+)(?:[ -][a-z-]+)?[ -]tools?\b/g;

/** Files under `dir` (repository-relative) whose name ends with `ext`, recursively. */
function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ext))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

test('the contract: the registry holds 55 tools', () => {
  assert.equal(TOOLS.length, 55);
});

test('each published text that states the tool count states the registry’s', () => {
  const published = {
    'README.md': read('README.md'),
    'packages/mcp/README.md': read('packages/mcp/README.md'),
    'packages/mcp/package.json description': JSON.parse(read('packages/mcp/package.json')).description,
    'packages/mcp/server.json description': JSON.parse(read('packages/mcp/server.json')).description,
  };
  for (const [where, text] of Object.entries(published)) {
    const counts = [...text.matchAll(STATED_COUNT)].map((m) => Number(m[1]));
    assert.ok(counts.length > 0, `${where} states the tool count`);
    for (const count of counts) assert.equal(count, TOOLS.length, `${where}: ${count} tools, the registry has ${TOOLS.length}`);
  }
});

test('nowhere else is the tool count written: not in docs/ (decision records aside), not in code', () => {
  const docs = filesUnder('docs', '.md').filter((file) => !file.startsWith(path.join('docs', 'decisions')));
  for (const file of docs) {
    const counts = [...read(file).matchAll(STATED_COUNT)].map((m) => m[0]);
    assert.deepEqual(counts, [], `${file} writes a tool count; say "the tools" or point to the registry`);
  }
  const code = ['packages/api', 'packages/mcp', 'packages/client']
    .flatMap((pkg) => [...filesUnder(path.join(pkg, 'src'), '.ts'), ...filesUnder(path.join(pkg, 'test'), '.ts')])
    .filter((file) => file !== path.join('packages', 'mcp', 'src', 'tools', 'index.ts') && !file.endsWith('tool-count.test.ts'));
  assert.ok(code.length > 100);
  const literal = new RegExp(`\\b${TOOLS.length}\\b`);
  for (const file of code) {
    read(file)
      .split('\n')
      .forEach((line, i) => {
        // In the tool server's own code any such number is the count; elsewhere, on a line about tools.
        const aboutTools = file.startsWith(path.join('packages', 'mcp', 'src')) || /tool|ツール/i.test(line);
        if (aboutTools && literal.test(line)) assert.fail(`${file}:${i + 1} writes the tool count: ${line.trim()}`);
      });
  }
});
