import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderSettingsMarkdown } from '../src/cli/settings-doc.ts';
import { REPO_ROOT, SETTINGS, loadConfig, ConfigError } from '../src/config.ts';

test('docs/settings.md is generated from the SETTINGS table', () => {
  const committed = readFileSync(path.join(REPO_ROOT, 'docs', 'settings.md'), 'utf8');
  assert.equal(committed, renderSettingsMarkdown(), 'run `npm run cli -- settings > docs/settings.md`');
});

test('every environment variable config.ts reads is in the SETTINGS table', () => {
  const source = readFileSync(path.join(REPO_ROOT, 'packages/api/src/config.ts'), 'utf8');
  const read = [...source.matchAll(/read\w+\(env, '([A-Z0-9_]+)'/g)].map((m) => m[1]);
  assert.ok(read.length > 10);
  const documented = new Set(SETTINGS.map((s) => s.name));
  for (const name of read) assert.ok(documented.has(name), `${name} is documented`);
});

test('bad settings are refused with a clear message', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty' }), ConfigError);
  assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
  assert.equal(loadConfig({}).unitPriceYen, 3);
  assert.throws(() => loadConfig({ UNIT_PRICE_YEN: '0.5' }), /UNIT_PRICE_YEN/, 'spend is kept in whole yen');
});
