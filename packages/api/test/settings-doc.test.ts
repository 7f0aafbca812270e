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

test('loadConfig reads exactly the variables of the SETTINGS rows', () => {
  // The environment as a recorder: every variable loadConfig looks at is noted.
  const read = new Set<string>();
  const recorder = (values: Record<string, string>) =>
    new Proxy(values, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return typeof name === 'string' ? target[name] : undefined;
      },
    });
  loadConfig(recorder({}));
  loadConfig(recorder({ NODE_ENV: 'production', IP_HASH_SALT: 'x'.repeat(32), SERVER_SECRET: 'y'.repeat(32), PUBLIC_BASE_URL: 'https://a.example' }));
  assert.deepEqual([...read].sort(), SETTINGS.map((s) => s.name).sort());
});

test('bad settings are refused with a clear message', () => {
  assert.throws(() => loadConfig({ PORT: 'eighty' }), ConfigError);
  assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
  assert.equal(loadConfig({}).unitPriceYen, 3);
  assert.throws(() => loadConfig({ UNIT_PRICE_YEN: '0.5' }), /UNIT_PRICE_YEN/, 'spend is kept in whole yen');
});
