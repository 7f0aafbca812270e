// The client's VERSION constant is the one in package.json (the constant
// exists because the compiled package may run where package.json is not
// readable, e.g. a browser bundle).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { VERSION } from '../src/index.ts';

test('VERSION equals the version in package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(VERSION, pkg.version);
});
