// The README stands alone and its commands and snippets are true: it links
// only to what the repository holds, every file, script and route it names
// exists, and its examples are the ones the landing page shows (examples.ts)
// for http://127.0.0.1:8080. The reference material moved out of it to
// docs/ (DOCS below) is held to the same checks. That the examples run:
// examples.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { COMMANDS } from '../../src/cli/index.ts';
import { clientExample, clientSetup, curlExample, mcpHttpConfig, mcpStdioConfig } from '../../src/portal/examples.ts';
import { build } from '../helper.ts';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
/** The reference the README links to, written for the same reader. */
const DOCS = ['docs/api.md', 'docs/staying-informed.md', 'docs/data.md', 'docs/running.md', 'docs/development.md'];
const ALL = [README, ...DOCS.map((file) => readFileSync(path.join(REPO_ROOT, file), 'utf8'))].join('\n');
const ORIGIN = 'http://127.0.0.1:8080';

/** The fenced code blocks of a language. */
const blocks = (language: string): string[] => [...README.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1].trimEnd());

test('the README and its reference link only to what the repository and the running server hold', () => {
  for (const [file, text] of [['README.md', README], ...DOCS.map((f) => [f, readFileSync(path.join(REPO_ROOT, f), 'utf8')])]) {
    assert.doesNotMatch(text, /\]\(\.\.\//, `${file}: no path outside the repository (a clone holds only itself)`);
    const base = path.dirname(path.join(REPO_ROOT, file));
    for (const [, link] of text.matchAll(/\]\(([^)]+)\)/g)) {
      if (/^https?:\/\/127\.0\.0\.1:8080\//.test(link)) continue; // the running server
      assert.ok(!/^[a-z]+:/.test(link), `${file}: only repository files and the local server are linked: ${link}`);
      const [target, anchor] = link.split('#');
      assert.ok(existsSync(path.join(base, target)), `${file}: linked file exists: ${link}`);
      if (anchor) {
        const headings = [...readFileSync(path.join(base, target), 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) =>
          m[1]
            .toLowerCase()
            .replace(/[^\p{L}\p{N} -]/gu, '')
            .replace(/ /g, '-'),
        );
        assert.ok(headings.includes(anchor), `${file}: ${link} names a heading of ${target}`);
      }
    }
  }
  const links = [...README.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
  assert.ok(links.filter((l) => l.startsWith('docs/screenshots/')).length >= 12, 'the screenshots are linked');
  const named = [...ALL.matchAll(/`((?:packages|docs|scripts|bench|data|\.ci)\/[^`\s]*)`/g)].map((m) => m[1]).filter((p) => !/[*{]|<v>/.test(p));
  assert.ok(named.length >= 10);
  for (const file of named) assert.ok(existsSync(path.join(REPO_ROOT, file.replace(/#.*$/, ''))), `named path exists: ${file}`);
  // The README starts with the first five minutes, and moved its reference to docs/.
  assert.match(README.split('\n## ')[1], /^The first five minutes\n/);
  for (const file of DOCS) assert.ok(README.includes(`](${file})`), `the README links ${file}`);
});

test('every npm script and CLI command the README runs exists', () => {
  const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const runs = [...ALL.matchAll(/npm run (?:-s )?([\w:-]+)/g)].map((m) => m[1]);
  assert.ok(runs.length >= 6);
  for (const script of runs) assert.ok(scripts[script], `npm run ${script}`);
  for (const [, command] of ALL.matchAll(/npm run (?:-s )?cli -- (\w+)/g))
    assert.ok(command === 'help' || COMMANDS.some((c) => c.name === command), `cli ${command}`);
  for (const [, command] of ALL.matchAll(/`(\w+) (?:create|list|revoke|approve|verify)/g)) {
    if (['keys', 'advisors', 'device'].includes(command))
      assert.ok(
        COMMANDS.some((c) => c.name === command),
        `cli ${command}`,
      );
  }
  const ci = readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8');
  assert.match(ci, /^npm test$/m, ".ci/run runs the README's test command");
  assert.match(ci, /^npm run typecheck$/m);
  assert.match(ci, /apt-get install -y --no-install-recommends chromium/, '.ci/run installs the browser the tests use');
  assert.match(ci, /apt-get install -y --no-install-recommends[^\n]*\bcurl\b/, '.ci/run installs the curl the examples test runs');
});

test("the README's examples are the landing page's, and its MCP host configurations match the package", () => {
  assert.ok(blocks('sh').includes(curlExample(ORIGIN)), 'curl example');
  assert.ok(blocks('sh').includes(clientSetup()), 'installing the client');
  assert.ok(blocks('js').includes(clientExample(ORIGIN)), 'client example');
  const json = blocks('json').map((b) => JSON.parse(b) as unknown);
  assert.ok(
    json.some((j) => JSON.stringify(j) === JSON.stringify(mcpStdioConfig(ORIGIN))),
    'stdio host configuration',
  );
  assert.ok(
    json.some((j) => JSON.stringify(j) === JSON.stringify(mcpHttpConfig(ORIGIN))),
    'Streamable HTTP host configuration',
  );

  // What the stdio configuration relies on: the tarball npm pack names, the package's one bin (npx runs it), the variables it reads.
  const mcp = JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/mcp/package.json'), 'utf8'));
  const stdio = mcpStdioConfig(ORIGIN).mcpServers['jp-support'];
  assert.deepEqual(stdio.args, ['-y', `file:/path/to/jp-support-programs/dist-packages/${mcp.name.slice(1).replace('/', '-')}-${mcp.version}.tgz`]);
  assert.equal(Object.keys(mcp.publishConfig.bin).length, 1, 'one bin: npx -y runs it');
  const bin = readFileSync(path.join(REPO_ROOT, 'packages/mcp/src/bin.ts'), 'utf8');
  for (const variable of Object.keys(stdio.env)) assert.match(bin, new RegExp(`process\\.env\\.${variable}\\b`), variable);
});

test('every route the README names is served', async (t) => {
  const app = await build(t);
  const named = [...ALL.matchAll(/`(GET|POST) (\/[^`\s]*)`/g)].map(([, method, url]) => `${method} ${url.replace(/\{(\w+)\}/g, ':$1')}`);
  assert.ok(named.length >= 15, named.join());
  for (const route of named) assert.ok(app.routePolicies.has(route), route);
  const http = mcpHttpConfig(ORIGIN).mcpServers['jp-support'];
  assert.ok(app.routePolicies.has(`POST ${new URL(http.url).pathname}`), 'the Streamable HTTP endpoint');
});
