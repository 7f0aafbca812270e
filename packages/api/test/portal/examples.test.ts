// Every example of the README and of the landing page, run as a reader
// pastes it, against a server started as `npm start` starts it (its own
// port and data directory; the only edits are the ones a reader makes:
// this server's origin for the README's http://127.0.0.1:8080, their key,
// their clone's path):
// - each shell block with the real bash and curl (creating the key with the
//   CLI too); every answer must be 2xx (curl's write-out, from a .curlrc);
// - the client: its install block with the machine's npm, into a new
//   directory, from the packed tarball; then example.mjs with the machine's
//   Node (20), which must print its three figures;
// - the Streamable HTTP host configuration through the MCP SDK's client.
// The stdio host configuration needs the npm registry (the MCP SDK):
// packages/mcp/test/pack-install.registry.ts runs it. Which lines are run and
// which are setup the harness stands for: published-examples.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../free-port.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type Started } from '../../../../bench/lib/processes.ts';
import { packPackage } from '../../../../scripts/pack-packages.ts';
import { REPO_ROOT } from '../../src/config.ts';
import { TOOLS } from '@jp-support/mcp/tools';
import { placeTestCatalog } from '../catalog-fixture.ts';
import { landingExamples, personalise, readmeExamples, type Examples, type McpHostConfig, type ShellBlock } from './published-examples.ts';

/** The machine's own Node and npm (not the repository's Node 24), as a reader has them. */
const MACHINE_BIN = ['/usr/local/bin', '/usr/bin'].find((dir) => existsSync(path.join(dir, 'node')) && existsSync(path.join(dir, 'npm')));
const MACHINE_PATH = '/usr/local/bin:/usr/bin:/bin';
const CURL = ['/usr/bin/curl', '/usr/local/bin/curl'].find((file) => existsSync(file));
const skip = !CURL ? 'curl is not installed (apt-get install curl; .ci/run does)' : !MACHINE_BIN ? 'no node and npm in /usr/local/bin or /usr/bin' : false;

let work: string;
let dataDir: string;
let clone: string;
let server: Started;
let readme: Examples;
let landing: Examples;
/** The key the README's block created, for the examples that use one. */
let apiKey = '';

before(async () => {
  if (skip) return;
  work = mkdtempSync(path.join(tmpdir(), 'jpsp-examples-'));
  dataDir = path.join(work, 'var');
  mkdirSync(dataDir);
  await placeTestCatalog(dataDir);
  server = await startServer(await freePort(), { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  // The reader's clone after `npm run pack:packages`: the client's tarball in dist-packages/.
  clone = path.join(work, 'clone');
  packPackage('client', path.join(clone, 'dist-packages'));
  readme = readmeExamples();
  landing = landingExamples(await (await fetch(`${server.url}/`)).text());
  // What a reader's .curlrc would not have: the status of every answer, for this test to read.
  writeFileSync(path.join(work, '.curlrc'), 'silent\nshow-error\nwrite-out = "\\n@@status %{http_code}\\n"\n');
});

after(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A reader's shell: the machine's PATH, their HOME, the key they exported. */
function shellEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: MACHINE_PATH, HOME: process.env.HOME ?? work, CURL_HOME: work, DATA_DIR: dataDir, JPSP_API_KEY: apiKey, ...extra };
}

/** Run one shell block as pasted (bash -e), with this server's origin; returns what it exported and the answers' statuses. */
async function runShell(block: ShellBlock): Promise<{ statuses: number[]; output: string }> {
  const script = `${personalise(block.script, { origin: server.url })}\nprintf '\\n@@key %s\\n' "$JPSP_API_KEY"\n`;
  // `npm run` needs the repository; curl alone runs anywhere (a download lands in the scratch directory).
  const cwd = /\bnpm run\b/.test(script) ? REPO_ROOT : work;
  const result = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env: shellEnv() });
  assert.equal(result.code, 0, `${block.where} exits 0: ${result.stderr}`);
  apiKey = /@@key (.*)\n/.exec(result.stdout)?.[1] ?? apiKey;
  const statuses = [...result.stdout.matchAll(/@@status (\d+)/g)].map((m) => Number(m[1]));
  return { statuses, output: result.stdout };
}

async function runShellExamples(examples: Examples, where: string): Promise<void> {
  assert.ok(examples.shell.length > 0, `${where} has shell examples`);
  for (const block of examples.shell) {
    const curls = block.commands.filter((c) => c.startsWith('curl '));
    const { statuses, output } = await runShell(block);
    assert.equal(statuses.length, curls.length, `${block.where}: one answer per curl command`);
    for (const [i, status] of statuses.entries()) assert.ok(status >= 200 && status < 300, `${block.where}: ${curls[i]} answered ${status}: ${output}`);
  }
}

test('README: the shell examples run as pasted (a key created with the CLI, every curl answered 2xx)', { skip, timeout: 300_000 }, async () => {
  await runShellExamples(readme, 'README');
  assert.match(apiKey, /^am_\w+/, 'the README made a key and exported it');
  const ping = await fetch(`${server.url}/v1/ping`, { headers: { 'x-api-key': apiKey } });
  assert.equal(((await ping.json()) as { authenticated: boolean }).authenticated, true, 'the exported key is a valid one');
  // The Japanese search of the first example, sent as curl sends it (raw UTF-8), found programmes.
  const [first] = readme.shell.flatMap((b) => b.commands).filter((c) => c.includes('/v1/programs/search'));
  const found = await run(CURL!, ['-q', '-sS', personalise(/'([^']+)'/.exec(first)![1], { origin: server.url })], { cwd: work, env: shellEnv() });
  assert.ok((JSON.parse(found.stdout) as { total: number }).total > 0, found.stdout);
});

test('landing page: the shell examples run as pasted', { skip, timeout: 300_000 }, async () => {
  if (!apiKey)
    apiKey = execFileSync('npm', ['run', '-s', 'cli', '--', 'keys', 'create', '--tier', 'free'], { cwd: REPO_ROOT, env: shellEnv(), encoding: 'utf8' }).trim();
  await runShellExamples(landing, 'landing page');
});

test("the client: installed from its tarball with the machine's npm, example.mjs run with the machine's Node", { skip, timeout: 300_000 }, async () => {
  const node = path.join(MACHINE_BIN!, 'node');
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  assert.ok(Number(/^v(\d+)/.exec(version)?.[1]) >= 20, `the machine's Node (${version}) is one the client supports`);
  for (const [where, examples] of [
    ['README', readme],
    ['landing page', landing],
  ] as const) {
    assert.equal(examples.clientSetup.length, 1, `${where}: one install block`);
    assert.equal(examples.clientScripts.length, 1, `${where}: one client script`);
    const home = mkdtempSync(path.join(work, 'reader-'));
    const setup = `${personalise(examples.clientSetup[0].script, { clone })}\npwd\n`;
    const installed = await run('bash', ['-e', '-o', 'pipefail', '-c', setup], { cwd: home, env: shellEnv() });
    assert.equal(installed.code, 0, `${where}: the install block: ${installed.stderr}`);
    const dir = installed.stdout.trim().split('\n').pop()!;
    assert.ok(existsSync(path.join(dir, 'node_modules', '@jp-support', 'client', 'dist', 'index.js')), `${where}: the client is installed in ${dir}`);
    writeFileSync(path.join(dir, 'example.mjs'), `${personalise(examples.clientScripts[0], { origin: server.url })}\n`);
    const ran = await run(node, ['example.mjs'], { cwd: dir, env: shellEnv() });
    assert.equal(ran.code, 0, `${where}: node example.mjs: ${ran.stderr}`);
    const printed = /^(\d+) (.+) (\d+)$/.exec(ran.stdout.trim());
    assert.ok(printed, `${where}: prints total, first name, hits: ${ran.stdout}`);
    assert.ok(Number(printed[1]) > 0, `${where}: the search found programmes`);
  }
});

async function runHttpConfig(config: McpHostConfig, where: string): Promise<void> {
  const personal = JSON.parse(personalise(JSON.stringify(config), { origin: server.url, key: apiKey })) as McpHostConfig;
  const [, server_] = Object.entries(personal.mcpServers)[0];
  assert.equal(server_.type, 'http', where);
  const transport = new StreamableHTTPClientTransport(new URL(server_.url!), { requestInit: { headers: server_.headers } });
  const host = new Client({ name: `${where} host`, version: '1.0.0' });
  await host.connect(transport);
  try {
    const { tools } = await host.listTools();
    assert.equal(tools.length, TOOLS.length, `${where}: the tools`);
    const answer = await host.callTool({ name: 'search_programs', arguments: { q: '省エネ', limit: 2 } });
    assert.equal((answer.structuredContent as { status: string }).status, 'ok', `${where}: a tool call answers`);
  } finally {
    await host.close();
  }
}

test('the Streamable HTTP host configuration, through the MCP SDK client, with the key it carries', { skip, timeout: 120_000 }, async () => {
  if (!apiKey)
    apiKey = execFileSync('npm', ['run', '-s', 'cli', '--', 'keys', 'create', '--tier', 'free'], { cwd: REPO_ROOT, env: shellEnv(), encoding: 'utf8' }).trim();
  const before = ((await (await fetch(`${server.url}/v1/ping`, { headers: { 'x-api-key': apiKey } })).json()) as { rate_limit_remaining: number })
    .rate_limit_remaining;
  for (const [where, examples] of [
    ['README', readme],
    ['landing page', landing],
  ] as const) {
    assert.equal(examples.mcpHttp.length, 1, where);
    await runHttpConfig(examples.mcpHttp[0], where);
  }
  const afterCalls = ((await (await fetch(`${server.url}/v1/ping`, { headers: { 'x-api-key': apiKey } })).json()) as { rate_limit_remaining: number })
    .rate_limit_remaining;
  assert.ok(afterCalls < before - 1, `the tool calls took the configured key's allowance (${before} -> ${afterCalls})`);
});
