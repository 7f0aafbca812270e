// The repository stands alone (docs/decisions/0004-repository-stands-alone.md):
// no code, comment, test, script or document names the design notes or the
// style guide kept outside it, nor a path into a sibling folder; every
// relative link of a document in docs/ resolves to a file in the repository;
// and every docs/ path a file names exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';

/** Where the repository's own text lives (generated files and data included; node_modules and build output left out). */
const SEARCHED = ['packages', 'docs', 'scripts', 'bench', '.ci', 'README.md', 'package.json', 'biome.json', 'tsconfig.json'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);
const TEXT = /\.(ts|js|mjs|md|json|jsonl|css|html|txt|yml|yaml)$|^run$/;

// Built from parts so that this file does not name what it forbids.
const FORBIDDEN: { what: string; pattern: RegExp }[] = [
  { what: 'the design notes', pattern: new RegExp(`\\b${'DESIGN'}\\.md\\b`) },
  { what: 'the style guide', pattern: new RegExp(`\\b${'STYLE'}\\.md\\b`) },
  { what: 'the interface contract file', pattern: new RegExp(`${'interface-spec'}\\.md`) },
  { what: 'a sibling folder of the repository', pattern: new RegExp(`\\.\\./${'shared'}\\b`) },
];

function* textFiles(entry: string): Generator<string> {
  const full = path.join(REPO_ROOT, entry);
  if (!existsSync(full)) return;
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full)) if (!SKIPPED_DIRS.has(name)) yield* textFiles(path.join(entry, name));
  } else if (TEXT.test(path.basename(entry))) {
    yield entry;
  }
}

const files = SEARCHED.flatMap((e) => [...textFiles(e)]);

test('no file names a document kept outside the repository', () => {
  assert.ok(files.length > 300, `only ${files.length} files searched`);
  assert.ok(files.includes('README.md') && files.some((f) => f.startsWith('docs/decisions/')));
  const hits: string[] = [];
  for (const file of files) {
    const lines = readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const { what, pattern } of FORBIDDEN) if (pattern.test(line)) hits.push(`${file}:${i + 1} names ${what}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(hits, [], 'point to the decision record that holds the content instead (docs/decisions/)');
});

test('the check finds what it forbids', () => {
  const named = (line: string) => FORBIDDEN.some(({ pattern }) => pattern.test(line));
  assert.ok(named(`// rules of ${'DESIGN'}.md`));
  assert.ok(named(`see ${'STYLE'}.md "Our layout"`));
  assert.ok(named(`a clone has no ../${'shared'}`));
  assert.ok(!named('docs/decisions/0065-canonical-json.md'));
});

/** Relative link targets of a markdown text, code spans and fenced blocks left out. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1].split('#')[0]).filter((target) => target !== '' && !/^[a-z]+:/.test(target));
}

test('every relative link of docs/ resolves inside the repository', () => {
  const broken: string[] = [];
  let links = 0;
  for (const file of files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'))) {
    for (const target of relativeLinks(readFileSync(path.join(REPO_ROOT, file), 'utf8'))) {
      links++;
      const resolved = path.resolve(REPO_ROOT, path.dirname(file), decodeURI(target));
      if (!resolved.startsWith(REPO_ROOT + path.sep) || !existsSync(resolved)) broken.push(`${file} -> ${target}`);
    }
  }
  assert.ok(links > 200, `only ${links} links checked`);
  assert.deepEqual(broken, []);
});

test('every path into docs/ that a file names exists', () => {
  const missing: string[] = [];
  for (const file of files) {
    // Data, not references: a golden output, and upstream's file names in the provenance table.
    if (file.startsWith('packages/api/test/ingest/golden/') || file === 'packages/api/src/entity-graph/provenance.ts') continue;
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const [named] of text.matchAll(/\bdocs\/[\w./-]*[\w/]/g)) {
      if (/NNNN|<|\*/.test(named) || /\.(ts|js)$/.test(named)) continue; // a template, or a path inside another tree
      if (!existsSync(path.join(REPO_ROOT, named))) missing.push(`${file}: ${named}`);
    }
  }
  assert.deepEqual(missing, []);
});
