// The README stands alone and its commands and snippets are true: it links
// only to what the repository holds, every file, script and route it names
// exists, and its examples are the ones the landing page shows (examples.ts)
// for http://127.0.0.1:8080.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../src/config.ts';
import { COMMANDS } from '../../src/cli/index.ts';
import { clientExample, curlExample, mcpHttpConfig, mcpStdioConfig } from '../../src/portal/examples.ts';
import { build } from '../helper.ts';

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const ORIGIN = 'http://127.0.0.1:8080';

/** The fenced code blocks of a language. */
const blocks = (language: string): string[] => [...README.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1].trimEnd());

test('the README links only to what the repository and the running server hold', () => {
  assert.doesNotMatch(README, /\.\.\//, 'no path outside the repository (a clone holds only itself)');
  const links = [...README.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
  for (const link of links) {
    if (/^https?:\/\/127\.0\.0\.1:8080\//.test(link)) continue; // the running server
    assert.ok(!/^[a-z]+:/.test(link), `only repository files and the local server are linked: ${link}`);
    assert.ok(existsSync(path.join(REPO_ROOT, link)), `linked file exists: ${link}`);
  }
  assert.ok(links.filter((l) => l.startsWith('docs/screenshots/')).length >= 8, 'the screenshots are linked');
  const named = [...README.matchAll(/`((?:packages|docs|scripts|bench|data|\.ci)\/[^`\s]*)`/g)].map((m) => m[1]).filter((p) => !/[*{]/.test(p));
  assert.ok(named.length >= 10);
  for (const file of named) assert.ok(existsSync(path.join(REPO_ROOT, file)), `named path exists: ${file}`);
});

test('every npm script and CLI command the README runs exists', () => {
  const scripts = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const runs = [...README.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
  assert.ok(runs.length >= 6);
  for (const script of runs) assert.ok(scripts[script], `npm run ${script}`);
  for (const [, command] of README.matchAll(/npm run cli -- (\w+)/g))
    assert.ok(command === 'help' || COMMANDS.some((c) => c.name === command), `cli ${command}`);
  for (const [, command] of README.matchAll(/`(\w+) (?:create|list|revoke|approve|verify)/g)) {
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
});

test("the README's examples are the landing page's, and its MCP host configurations match the package", () => {
  assert.ok(blocks('sh').includes(curlExample(ORIGIN)), 'curl example');
  assert.ok(blocks('ts').includes(clientExample(ORIGIN)), 'client example');
  const json = blocks('json').map((b) => JSON.parse(b) as unknown);
  assert.ok(
    json.some((j) => JSON.stringify(j) === JSON.stringify(mcpStdioConfig(ORIGIN))),
    'stdio host configuration',
  );
  assert.ok(
    json.some((j) => JSON.stringify(j) === JSON.stringify(mcpHttpConfig(ORIGIN))),
    'Streamable HTTP host configuration',
  );

  // What the stdio configuration relies on: the package's one bin (npx runs it) and the variables it reads.
  const mcp = JSON.parse(readFileSync(path.join(REPO_ROOT, 'packages/mcp/package.json'), 'utf8'));
  const stdio = mcpStdioConfig(ORIGIN).mcpServers['jp-support'];
  assert.deepEqual(stdio.args, ['-y', mcp.name]);
  assert.equal(Object.keys(mcp.publishConfig.bin).length, 1, 'one bin: npx -y runs it');
  const bin = readFileSync(path.join(REPO_ROOT, 'packages/mcp/src/bin.ts'), 'utf8');
  for (const variable of Object.keys(stdio.env)) assert.match(bin, new RegExp(`process\\.env\\.${variable}\\b`), variable);
});

test('every route the README names is served', async (t) => {
  const app = await build(t);
  const named = [...README.matchAll(/`(GET|POST) (\/[^`\s]*)`/g)].map(([, method, url]) => `${method} ${url.replace(/\{(\w+)\}/g, ':$1')}`);
  assert.ok(named.length >= 15, named.join());
  for (const route of named) assert.ok(app.routePolicies.has(route), route);
  const http = mcpHttpConfig(ORIGIN).mcpServers['jp-support'];
  assert.ok(app.routePolicies.has(`POST ${new URL(http.url).pathname}`), 'the Streamable HTTP endpoint');
});
