// The import rules (docs/decisions/0007-import-rules.md, docs/architecture.md):
// no import cycles anywhere in packages/*/src, neither between files nor
// between modules (a module = a top-level folder or file of a package's
// src/, e.g. api:catalog/, api:entity-graph/, client:resources/); the
// dependency direction routes -> plugins -> catalog/state/billing; and
// packages that stand alone. A failure names the cycle or the import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findCycles, importGraph, type ImportGraph } from './import-graph.ts';

const graph: ImportGraph = importGraph();

/** `packages/api/src/catalog/db.ts` -> `api:catalog/`; `packages/api/src/app.ts` -> `api:app.ts`. */
function moduleOf(file: string): string {
  const m = /^packages\/([^/]+)\/src\/([^/]+)(\/)?/.exec(file);
  if (!m) throw new Error(`not a source file: ${file}`);
  return `${m[1]}:${m[2]}${m[3] ?? ''}`;
}

/** Imports from files matching `from` to files matching `to`, as `a -> b` lines. */
function importsBetween(from: RegExp, to: RegExp): string[] {
  return [...graph.edges].filter(([file]) => from.test(file)).flatMap(([file, targets]) => targets.filter((t) => to.test(t)).map((t) => `${file} -> ${t}`));
}

test('the walker sees the workspace: every relative and workspace import resolves', () => {
  assert.ok(graph.edges.size > 100, `only ${graph.edges.size} source files found`);
  assert.ok((graph.edges.get('packages/api/src/app.ts') ?? []).includes('packages/api/src/routes/v1/am/index.ts'), 'app.ts -> routes/v1/am seen');
  assert.ok((graph.edges.get('packages/mcp/src/bin.ts') ?? []).includes('packages/client/src/index.ts'), 'workspace package import seen');
  assert.deepEqual(graph.unresolved, []);
});

test('the cycle finder finds and names a cycle', () => {
  const edges = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts', 'd.ts']],
    ['d.ts', []],
  ]);
  assert.deepEqual(findCycles(edges), [['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  assert.deepEqual(
    findCycles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', []],
      ]),
    ),
    [],
  );
});

test('no import cycle between files', () => {
  const cycles = findCycles(graph.edges).map((c) => c.join(' -> '));
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.join('\n')}`);
});

test('no import cycle between modules (top-level folders and files of each src/)', () => {
  const edges = new Map<string, Set<string>>();
  const example = new Map<string, string>();
  for (const [file, targets] of graph.edges) {
    for (const target of targets) {
      const [a, b] = [moduleOf(file), moduleOf(target)];
      if (a === b) continue;
      if (!edges.has(a)) edges.set(a, new Set());
      edges.get(a)!.add(b);
      if (!example.has(`${a} ${b}`)) example.set(`${a} ${b}`, `${file} -> ${target}`);
    }
  }
  const cycles = findCycles(new Map([...edges].map(([k, v]) => [k, [...v]]))).map(
    (c) =>
      `${c.join(' -> ')}\n${c
        .slice(1)
        .map((m, i) => `    ${example.get(`${c[i]} ${m}`)}`)
        .join('\n')}`,
  );
  assert.deepEqual(cycles, [], `module cycles:\n${cycles.join('\n')}`);
});

test('dependencies point one way: routes -> plugins -> catalog/state/billing (and the entity graph)', () => {
  const lower = /^packages\/api\/src\/(catalog|ingest|state|billing|entity-graph)\//;
  assert.deepEqual(
    importsBetween(lower, /^packages\/api\/src\/(routes|plugins)\//),
    [],
    'catalog/, ingest/, state/, billing/ and entity-graph/ never import routes/ or plugins/',
  );
  assert.deepEqual(importsBetween(/^packages\/api\/src\/plugins\//, /^packages\/api\/src\/routes\//), [], 'plugins/ never import routes/');
});

test('build time apart from serve time: what serves requests (catalog/, entity-graph/) never imports what builds the catalogue (ingest/)', () => {
  assert.deepEqual(
    importsBetween(/^packages\/api\/src\/(catalog|entity-graph|routes|plugins)\//, /^packages\/api\/src\/ingest\//),
    [],
    "ingest/ imports the catalogue's shared definitions, never the other way round",
  );
});

test('packages stand alone: the client never imports the API or the tool server; the tool server never imports the API; the vocabularies import nothing', () => {
  assert.deepEqual(importsBetween(/^packages\/client\//, /^packages\/(api|mcp)\//), []);
  assert.deepEqual(importsBetween(/^packages\/mcp\//, /^packages\/api\//), [], 'MCP tools go through packages/client');
  assert.deepEqual(importsBetween(/^packages\/vocab\//, /^packages\/(api|client|mcp)\//), [], '@jp-support/vocab has no dependencies');
});
