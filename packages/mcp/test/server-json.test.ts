// packages/mcp/server.json, the MCP server registry's description of this
// package (schema 2025-12-11): the registry's rules that can be checked here,
// and agreement with the package it describes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(import.meta.dirname, '..');
const server = JSON.parse(readFileSync(path.join(DIR, 'server.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(path.join(DIR, 'package.json'), 'utf8'));

const SERVER_KEYS = ['$schema', 'name', 'title', 'description', 'version', 'websiteUrl', 'repository', 'icons', 'packages', 'remotes', '_meta'];
const PACKAGE_KEYS = [
  'registryType',
  'registryBaseUrl',
  'identifier',
  'version',
  'fileSha256',
  'runtimeHint',
  'transport',
  'runtimeArguments',
  'packageArguments',
  'environmentVariables',
];
const INPUT_KEYS = ['name', 'description', 'isRequired', 'format', 'value', 'isSecret', 'default', 'placeholder', 'choices', 'variables'];
const VERSION_RANGE = /^[\^~><=]|\.x\b|\*|^latest$/;

test("server.json keeps the registry schema's rules", () => {
  assert.equal(server.$schema, 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
  for (const key of Object.keys(server)) assert.ok(SERVER_KEYS.includes(key), `known field ${key}`);
  assert.match(server.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  assert.ok(server.description.length >= 1 && server.description.length <= 100, 'description: 1 to 100 characters');
  assert.ok(server.title.length <= 100);
  assert.doesNotMatch(server.version, VERSION_RANGE, 'a specific version');
  for (const pkg of server.packages) {
    for (const key of Object.keys(pkg)) assert.ok(PACKAGE_KEYS.includes(key), `known package field ${key}`);
    for (const required of ['registryType', 'identifier', 'transport']) assert.ok(pkg[required], required);
    assert.doesNotMatch(pkg.version, VERSION_RANGE);
    for (const variable of pkg.environmentVariables) for (const key of Object.keys(variable)) assert.ok(INPUT_KEYS.includes(key), `known input field ${key}`);
  }
  for (const remote of server.remotes) {
    assert.equal(remote.type, 'streamable-http');
    assert.match(remote.url, /^https?:\/\/[^\s]+$/);
    for (const [, variable] of remote.url.matchAll(/\{(\w+)\}/g)) assert.ok(remote.variables?.[variable], `URL variable ${variable} is declared`);
  }
});

test('server.json describes this package: name, version, transport, the variables bin.ts reads, the /mcp endpoint', () => {
  assert.equal(manifest.mcpName, server.name, 'package.json mcpName (the registry checks it on npm)');
  assert.equal(server.version, manifest.version);
  const [npm] = server.packages;
  assert.deepEqual([npm.registryType, npm.identifier, npm.version, npm.transport.type], ['npm', manifest.name, manifest.version, 'stdio']);
  const bin = readFileSync(path.join(DIR, 'src', 'bin.ts'), 'utf8');
  const read = [...bin.matchAll(/process\.env\.(JPSP_\w+)/g)].map((m) => m[1]).filter((v) => v !== 'JPSP_BASE_URL');
  assert.deepEqual(npm.environmentVariables.map((v: { name: string }) => v.name).sort(), [...new Set(read)].sort());
  assert.equal(npm.environmentVariables.find((v: { name: string }) => v.name === 'JPSP_API_KEY').isSecret, true);
  const [remote] = server.remotes;
  assert.match(remote.url, /\/mcp$/);
  assert.deepEqual(
    remote.headers.map((h: { name: string }) => h.name),
    ['X-API-Key'],
  );
});
