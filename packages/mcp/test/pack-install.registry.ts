// The packages as a user gets them: `npm run pack:packages` packs
// @jp-support/vocab, client and mcp with `npm pack` (mcp with the other two
// bundled inside); the tarballs are installed into an empty directory by the
// machine's own npm (Node 20: no part of this repository, no Node 24); then,
// with the machine's own Node, the MCP `bin` lists its tools (the registry's) and calls
// one against a running server, `launchToolServer` from the installed client
// starts the installed server, and a consumer's TypeScript resolves the
// published declarations. Then the stdio host configuration the README and
// the landing page show (`npx -y file:…/jp-support-mcp-<v>.tgz`, the one
// tarball and nothing else) is launched by the MCP SDK's client from an
// empty directory with the machine's npx. Needs the npm registry for the
// MCP SDK and zod (CI reaches it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build } from '../../api/test/helper.ts';
import { packPackages } from '../../../scripts/pack-packages.ts';
import { landingExamples, personalise, readmeExamples } from '../../api/test/portal/published-examples.ts';
import { generateApiKey } from '../../api/src/access/keys.ts';
import { TOOLS } from '../src/tools/index.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The machine's own Node and npm (not the repository's Node 24), as a user has them. */
const MACHINE_BIN = ['/usr/local/bin', '/usr/bin'].find((dir) => existsSync(path.join(dir, 'node')) && existsSync(path.join(dir, 'npm')));
/** A PATH with only the machine's directories: `#!/usr/bin/env node` then finds the machine's Node. */
const MACHINE_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Every file an `exports` map points at (the values, at any depth of conditions). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  return exports && typeof exports === 'object' ? Object.values(exports).flatMap(exportTargets) : [];
}

test("packed, installed in an empty directory and run with the machine's Node: its tools, a call, launchToolServer, types", {
  skip: MACHINE_BIN ? false : 'no node and npm in /usr/local/bin or /usr/bin',
  timeout: 600_000,
}, async (t) => {
  const node = path.join(MACHINE_BIN!, 'node');
  const npm = path.join(MACHINE_BIN!, 'npm');
  const machineVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  assert.ok(Number(/^v(\d+)/.exec(machineVersion)?.[1]) >= 20, `the machine's Node (${machineVersion}) is one the packages support`);

  const work = mkdtempSync(path.join(tmpdir(), 'jpsp-pack-install-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const packed = packPackages(path.join(work, 'tarballs'));
  assert.deepEqual(
    packed.map((p) => p.name),
    ['@jp-support/vocab', '@jp-support/client', '@jp-support/mcp'],
  );

  // What the tarballs hold: compiled JavaScript and declarations, a publishable manifest.
  for (const p of packed) {
    const files = execFileSync('tar', ['-tzf', p.tarball], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(files.includes('package/package.json') && files.includes('package/README.md'), p.name);
    assert.ok(files.some((f) => f.endsWith('.d.ts')) && files.some((f) => f.endsWith('.js')), `${p.name}: JS and declarations`);
    assert.deepEqual(
      files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
      [],
      `${p.name}: no TypeScript source`,
    );
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', p.tarball, 'package/package.json'], { encoding: 'utf8' }));
    assert.equal(manifest.private, undefined, `${p.name} is publishable`);
    // Node 20 (the vocabularies need 20.10 for JSON import attributes).
    assert.match(manifest.engines.node, /^>=20(\.\d+)?$/, `${p.name}: runs on Node 20`);
    assert.deepEqual(manifest.files, ['dist', 'README.md']);
    assert.equal(manifest.publishConfig, undefined, 'publishConfig is applied, not shipped');
    assert.equal(manifest.scripts, undefined);
    for (const target of exportTargets(manifest.exports)) {
      assert.ok(files.includes(`package/${target.slice(2)}`), `${p.name}: exports target ${target} is in the tarball`);
      assert.match(target, /^\.\/dist\/.*\.(js|d\.ts)$/, `${p.name}: exports point at the build`);
    }
  }
  const mcpManifest = JSON.parse(execFileSync('tar', ['-xzOf', packed[2].tarball, 'package/package.json'], { encoding: 'utf8' }));
  assert.deepEqual(mcpManifest.bin, { 'jp-support-mcp': './dist/bin.js' });
  // The MCP tarball carries the built client and vocabulary (bundleDependencies): npx needs no other tarball.
  assert.deepEqual(mcpManifest.bundleDependencies, ['@jp-support/client', '@jp-support/vocab']);
  const mcpFiles = execFileSync('tar', ['-tzf', packed[2].tarball], { encoding: 'utf8' }).trim().split('\n');
  for (const dependency of ['client', 'vocab']) {
    assert.ok(mcpFiles.includes(`package/node_modules/@jp-support/${dependency}/dist/index.js`), `${dependency} is bundled`);
    assert.ok(mcpFiles.includes(`package/node_modules/@jp-support/${dependency}/package.json`), `${dependency}'s manifest is bundled`);
  }
  assert.ok(!mcpFiles.some((f) => /node_modules\/(?!@jp-support\/)/.test(f)), 'nothing but the two sibling packages is bundled');
  assert.match(execFileSync('tar', ['-xzOf', packed[2].tarball, 'package/dist/bin.js'], { encoding: 'utf8' }), /^#!\/usr\/bin\/env node\n/);

  // An empty project; the machine's npm installs the three tarballs (and the MCP SDK and zod from the registry).
  const project = path.join(work, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const machineEnv = { ...process.env, PATH: MACHINE_PATH, NODE_OPTIONS: '' };
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packed.map((p) => p.tarball)], {
    cwd: project,
    env: machineEnv,
    stdio: 'pipe',
  });
  for (const p of packed) {
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules', p.name, 'package.json'), 'utf8'));
    assert.equal(installed.version, p.version, `${p.name} is the packed one`);
    assert.ok(existsSync(path.join(project, 'node_modules', p.name, 'dist')), `${p.name} installed from the tarball (it has dist/)`);
  }
  for (const dependency of ['client', 'vocab']) {
    const bundled = path.join(project, 'node_modules', '@jp-support', 'mcp', 'node_modules', '@jp-support', dependency, 'package.json');
    assert.equal(JSON.parse(readFileSync(bundled, 'utf8')).version, packed[2].version, `the MCP package uses its bundled ${dependency}`);
  }

  // A running server.
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  // The `bin`, as an MCP host starts it: the link npm made, run by `env node` = the machine's Node.
  const transport = new StdioClientTransport({
    command: path.join(project, 'node_modules', '.bin', 'jp-support-mcp'),
    env: { PATH: MACHINE_PATH, JPSP_API_BASE_URL: baseUrl },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'pack-install-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.equal(tools.length, TOOLS.length);
  const found = await client.callTool({ name: 'search_programs', arguments: { q: 'スマート農業', limit: 3 } });
  const result = found.structuredContent as { status: string; result_count: number };
  assert.equal(result.status, 'ok');
  assert.ok(result.result_count > 0);
  await client.close();

  // launchToolServer from the installed client, with the installed MCP package's command.
  writeFileSync(
    path.join(project, 'launch.mjs'),
    [
      "import { launchToolServer } from '@jp-support/client';",
      "import { toolServerCommand } from '@jp-support/mcp/launch';",
      'const command = toolServerCommand();',
      "const mcp = await launchToolServer({ baseUrl: process.argv[2], ...command, stderr: 'ignore' });",
      'const { tools } = await mcp.listTools();',
      "const meta = await mcp.callTool({ name: 'get_meta', arguments: {} });",
      'console.log(JSON.stringify({ node: process.version, command, tools: tools.length, status: meta.structuredContent.status }));',
      'await mcp.close();',
    ].join('\n'),
  );
  // Asynchronously: the server runs in this process and must keep answering.
  const { stdout } = await promisify(execFile)(node, ['launch.mjs', baseUrl], { cwd: project, env: machineEnv, encoding: 'utf8' });
  const launched = JSON.parse(stdout);
  assert.equal(launched.node, machineVersion);
  assert.deepEqual(launched.command, { command: node, args: [path.join(project, 'node_modules', '@jp-support', 'mcp', 'dist', 'bin.js')] });
  assert.equal(launched.tools, TOOLS.length);
  assert.equal(launched.status, 'ok');

  // A consumer's TypeScript finds the declarations through `exports` (a wrong call would not compile).
  writeFileSync(
    path.join(project, 'consumer.ts'),
    [
      "import { JpSupportClient, launchToolServer, type LaunchToolServerOptions } from '@jp-support/client';",
      "import { toolServerCommand, type ToolServerCommand } from '@jp-support/mcp/launch';",
      "import { PREFECTURE_NAMES } from '@jp-support/vocab';",
      "const client = new JpSupportClient({ baseUrl: 'http://127.0.0.1:8080' });",
      "const search: Promise<{ total: number }> = client.programs.search({ q: '省エネ', limit: 5 });",
      'const command: ToolServerCommand = toolServerCommand();',
      "const options: LaunchToolServerOptions = { baseUrl: 'http://127.0.0.1:8080', ...command };",
      'const first: string = PREFECTURE_NAMES[0];',
      'export { search, options, first, launchToolServer };',
    ].join('\n'),
  );
  const tsc = (file: string) =>
    execFileSync(
      path.join(ROOT, 'node_modules', '.bin', 'tsc'),
      ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', file],
      { cwd: project, encoding: 'utf8', stdio: 'pipe' },
    );
  tsc('consumer.ts');
  writeFileSync(path.join(project, 'wrong.ts'), "import { JpSupportClient } from '@jp-support/client';\nnew JpSupportClient({ baseUrl: 1 });\n");
  assert.throws(
    () => tsc('wrong.ts'),
    (err: { stdout?: string }) => /TS2322/.test(err.stdout ?? ''),
    'the declarations are real types, not any',
  );

  // The stdio host configuration of the README and of the landing page, as an MCP host runs it: npx (the
  // machine's) from an empty directory, the one MCP tarball at the path the configuration names.
  const tarballs = path.dirname(packed[2].tarball);
  const clone = path.join(work, 'clone');
  execFileSync('mkdir', ['-p', clone]);
  execFileSync('ln', ['-s', tarballs, path.join(clone, 'dist-packages')]);
  const landing = await app.inject({ url: '/', headers: { host: new URL(baseUrl).host } });
  const configs = [
    ...readmeExamples().mcpStdio.map((c) => ({ where: 'README', c })),
    ...landingExamples(landing.body).mcpStdio.map((c) => ({ where: 'landing page', c })),
  ];
  assert.equal(configs.length, 2, 'one stdio configuration in the README, one on the landing page');
  const key = generateApiKey();
  await app.state.keys.create({ keyHash: key.hash, prefix: key.prefix, tier: 'free' });
  const empty = path.join(work, 'empty');
  execFileSync('mkdir', ['-p', empty]);
  for (const { where, c } of configs) {
    const personal = JSON.parse(personalise(JSON.stringify(c), { origin: baseUrl, clone, key: key.key })) as typeof c;
    const [name, server] = Object.entries(personal.mcpServers)[0];
    assert.equal(server.command, 'npx', where);
    const npx = new StdioClientTransport({
      command: server.command!,
      args: server.args,
      cwd: empty,
      env: { PATH: MACHINE_PATH, HOME: process.env.HOME ?? work, ...server.env },
      stderr: 'pipe',
    });
    const host = new Client({ name: `${where} host`, version: '1.0.0' });
    await host.connect(npx);
    const listed = await host.listTools();
    assert.equal(listed.tools.length, TOOLS.length, `${where}: ${name} lists its tools`);
    const answer = await host.callTool({ name: 'search_programs', arguments: { q: '省エネ', limit: 2 } });
    assert.equal((answer.structuredContent as { status: string }).status, 'ok', `${where}: a tool call answers`);
    await host.close();
  }
  // The calls went out with the key the configurations carry: they are this key's usage.
  let used = 0;
  for (let i = 0; i < 100 && used < 2; i++) {
    const dashboard = await app.inject({ url: '/v1/me/dashboard', headers: { 'x-api-key': key.key } });
    used = (JSON.parse(dashboard.body) as { requests: number }).requests;
    if (used < 2) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(used >= 2, `the key's usage counts the tool calls (${used})`);
});
